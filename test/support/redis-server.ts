// A real redis-server for the gateway's multi-instance tests: a child of the test on 127.0.0.1,
// its own port and temp folder, no persistence, stopped by pid — never the system service. See
// /work/shared/recipes/README.md ("Redis and nginx for tests").
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, forget, freePort, killOnExit, runs, sleep, stopChild } from './child-daemons';

let available: boolean | undefined;

/** Whether redis-server is installed (suites `describe.skipIf(!redisAvailable())`). */
export function redisAvailable(): boolean {
  available ??= runs('redis-server', ['--version']);
  return available;
}

export interface RedisServer {
  /** `redis://127.0.0.1:PORT` */
  url: string;
  port: number;
  readonly pid: number;
  /** SIGKILL: Redis gone without a goodbye, as in a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** SIGTERM (SIGKILL after 5 s), wait for the exit, remove the temp folder. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  if (!redisAvailable()) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'suikouji-redis-'));
  const port = await freePort();
  let child: ChildProcess = await launch(port, dir);
  let stopped = false;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid!;
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
      forget(child.pid!);
    },
    async restart() {
      child = await launch(port, dir);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopChild(child);
      forget(child.pid!);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => {
    if (output.length < 10_000) output += d.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  if (child.pid !== undefined) killOnExit(child.pid, dir);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await pong(port)) return child;
    await sleep(20);
  }
  await stopChild(child, 'SIGKILL');
  throw new Error(`redis-server did not start on ${port}:\n${output}`);
}

/** One raw PING on a fresh connection: the server is up and serving commands. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}
