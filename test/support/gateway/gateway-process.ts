// The gateway as `npm run gateway` runs it — a separate Node process configured by environment —
// for tests and benches that restart instances with signals (a rolling restart behind nginx).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exited, forget, killOnExit, sleep, stopChild } from '../child-daemons';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface GatewayProcess {
  url: string;
  port: number;
  pid: number;
  /** Every JSON line it logged so far (non-JSON lines are kept as {raw}). */
  logs: Record<string, unknown>[];
  /** Sends a signal and resolves with the exit code (null when killed by a signal). */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  /** Sends a signal and returns at once; `exitCode` then tells how it ended. */
  send(signal: NodeJS.Signals): void;
  /** Resolves with the exit code once the process has ended (null when killed by a signal). */
  exitCode(): Promise<number | null>;
  /** SIGKILL if still running; for cleanup. */
  kill(): Promise<void>;
}

/**
 * Starts `src/gateway/server.ts` under tsx's loader (one process, so a signal reaches the gateway
 * itself, not a wrapper) and resolves once GET /healthz answers.
 */
export async function startGatewayProcess(
  env: Record<string, string>,
  options: { port: number; stdout?: 'capture' | 'ignore' },
): Promise<GatewayProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/gateway/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(options.port), HOST: '127.0.0.1' },
    stdio: ['ignore', options.stdout === 'ignore' ? 'ignore' : 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let partial = '';
  child.stdout?.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) continue;
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ raw: line });
      }
    }
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 20_000) stderr += d.toString();
  });
  if (child.pid !== undefined) killOnExit(child.pid, null);
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`gateway exited (${child.exitCode ?? child.signalCode}) before serving:\n${stderr}`);
    if (Date.now() > deadline) {
      await stopChild(child, 'SIGKILL');
      throw new Error(`gateway not serving on ${options.port} after 30 s:\n${stderr}`);
    }
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  const exitCode = async () => {
    const { code } = await exited(child);
    forget(child.pid!);
    return code;
  };
  return {
    url,
    port: options.port,
    pid: child.pid!,
    logs,
    signal(signal) {
      child.kill(signal);
      return exitCode();
    },
    send(signal) {
      child.kill(signal);
    },
    exitCode,
    async kill() {
      await stopChild(child, 'SIGKILL', 0);
      forget(child.pid!);
    },
  };
}
