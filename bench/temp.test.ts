import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const temp = pathToFileURL(fileURLToPath(new URL('./temp.ts', import.meta.url))).href;

/** A bench in miniature: a folder of its own and a child process, then it waits to be stopped. */
const BENCH = `
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchProcess, benchTempDir } from '${temp}';
const dir = benchTempDir('case-');
writeFileSync(join(dir, 'data.db'), 'x'.repeat(1 << 20));
const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
benchProcess(sleeper.pid);
process.stdout.write(JSON.stringify({ dir, sleeper: sleeper.pid }) + '\\n');
setInterval(() => {}, 1000);
`;

let sandbox = '';
let bench: ChildProcess | undefined;
afterEach(() => {
  // A test that failed half-way: its bench must not outlive it (the sweeper then cleans up).
  if (bench?.exitCode === null && bench.signalCode === null) bench.kill('SIGKILL');
  rmSync(sandbox, { recursive: true, force: true });
});

/** Whether a process still runs (a zombie waiting for its new parent to reap it does not). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(done: () => boolean, ms = 10_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return done();
}

/** Starts the miniature bench with TMPDIR in a fresh folder, stops it with `signal` once it is set up. */
async function interrupt(signal: NodeJS.Signals) {
  sandbox = mkdtempSync(join(tmpdir(), 'skj-temp-test-'));
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', BENCH], {
    // No compile cache in TMPDIR: the folder must hold the bench's files only.
    env: { ...process.env, TMPDIR: sandbox, SKJ_BENCH_TEMP: '', TSX_DISABLE_CACHE: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  bench = child;
  const started = await new Promise<{ dir: string; sleeper: number }>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(JSON.parse(line) as { dir: string; sleeper: number }));
    child.once('exit', (code) => reject(new Error(`exited ${code} before it was set up`)));
  });
  expect(existsSync(join(started.dir, 'data.db'))).toBe(true);
  expect(readdirSync(sandbox)).toEqual([expect.stringMatching(/^skj-bench-/)]);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, sig) => resolve({ code, signal: sig })),
  );
  child.kill(signal);
  return { exit: await exited, sleeper: started.sleeper };
}

describe('an interrupted bench leaves nothing behind', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: exits %i, its folder is removed and the process it started is stopped',
    async (signal, code) => {
      const { exit, sleeper } = await interrupt(signal);
      expect(exit.code).toBe(code);
      expect(await until(() => readdirSync(sandbox).length === 0)).toBe(true);
      expect(await until(() => !running(sleeper))).toBe(true);
    },
    30_000,
  );

  it('SIGKILL: the sweeper removes the folder and stops the process it started', async () => {
    const { exit, sleeper } = await interrupt('SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
    expect(await until(() => readdirSync(sandbox).length === 0)).toBe(true);
    expect(await until(() => !running(sleeper))).toBe(true);
  }, 30_000);
});
