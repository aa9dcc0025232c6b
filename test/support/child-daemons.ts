// What the real-daemon helpers (redis-server.ts, nginx-server.ts, gateway/gateway-process.ts)
// share: free loopback ports, waiting for a port or an exit, and a last-resort cleanup so no
// child outlives the test process even when a test forgets to stop it or fails half-way.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Whether `command args` runs and exits 0 (a probe for an installed binary). */
export function runs(command: string, args: string[]): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port; rejects with why not. */
export async function waitForPort(port: number, child: ChildProcess, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before listening`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(25);
  }
  throw new Error(`${what} not listening on ${port} after ${timeoutMs} ms`);
}

/** Stops a child: `signal`, then SIGKILL if it is still there after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) return exited(child);
  child.kill(signal);
  const done = await Promise.race([exited(child), sleep(graceMs).then(() => null)]);
  if (done) return done;
  child.kill('SIGKILL');
  return exited(child);
}

const live = new Map<number, { dir: string | null; signal: NodeJS.Signals }>();
let hooked = false;

/**
 * Remembers a child (and its temp folder) to signal and remove when the test process exits, even
 * by an uncaught error. SIGKILL by default; a daemon with workers (nginx) needs SIGTERM, or its
 * master dies alone and the workers live on.
 */
export function killOnExit(pid: number, dir: string | null, signal: NodeJS.Signals = 'SIGKILL'): void {
  live.set(pid, { dir, signal });
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const [p, { dir, signal }] of live) {
      try {
        process.kill(p, signal);
      } catch {
        // already gone
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
}

export function forget(pid: number): void {
  live.delete(pid);
}
