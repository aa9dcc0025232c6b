// Everything a bench run writes to the temp folder goes into one folder, $TMPDIR/skj-bench-XXXXXX,
// removed when the run ends, however it ends: normally, by an uncaught error, by SIGINT or SIGTERM
// (then the run exits 130 or 143), or killed outright — tsx's wrapper SIGKILLs a process whose
// event loop is busy when Ctrl+C comes (the 1 000 000-row seeds keep it busy for seconds), so a
// detached sweeper (temp-sweeper.mjs) waits for the run's end and then stops the processes the
// run started and removes the folder. The folder is also TMPDIR for the rest of the run: the
// daemons the test helpers start (Apache, Redis, nginx), the sync suite's joining device and
// every other child put their files there as well.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set for the run's children: a bench process started by the bench shares its folder. */
const ROOT_ENV = 'SKJ_BENCH_TEMP';
export const BENCH_TEMP_PREFIX = 'skj-bench-';

let root: string | undefined;
let sweeper: ChildProcess | undefined;
/** TMPDIR as the run found it. */
let outerTmpdir: string | undefined;

/** The run's folder, made (and the clean-up armed) on the first call. */
export function benchTempRoot(): string {
  if (root) return root;
  const inherited = process.env[ROOT_ENV];
  if (inherited) return (root = inherited);
  outerTmpdir = tmpdir();
  const made = mkdtempSync(join(outerTmpdir, BENCH_TEMP_PREFIX));
  // Apache's and nginx's workers run as another user when the bench runs as root: they must
  // pass through to their own folders in here (the helpers open those up themselves).
  chmodSync(made, 0o711);
  root = made;
  process.env[ROOT_ENV] = made;
  process.env.TMPDIR = made;
  process.on('exit', () => {
    try {
      rmSync(made, { recursive: true, force: true });
    } catch {
      // A daemon still writing into it (the helpers stop theirs in 'exit' hooks of their own,
      // which may run after this one): the sweeper removes what is left once they are gone.
    }
  });
  // Exiting runs the 'exit' hooks: this one, and the test helpers' that stop their daemons.
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  sweeper = spawn(process.execPath, [fileURLToPath(new URL('./temp-sweeper.mjs', import.meta.url)), made], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // Neither the sweeper nor the pipe to it keeps the run alive, and a sweeper gone early only
  // costs the clean-up after a SIGKILL, not the run.
  sweeper.unref();
  (sweeper.stdin as unknown as { unref(): void }).unref();
  sweeper.stdin?.on('error', () => undefined);
  return made;
}

/** A new folder for one suite (or one of its devices) inside the run's folder. */
export function benchTempDir(prefix: string): string {
  return mkdtempSync(join(benchTempRoot(), prefix));
}

/** A process the bench started: stopped by the sweeper if the run ends without stopping it. */
export function benchProcess(pid: number | undefined): void {
  if (pid !== undefined) sweeper?.stdin?.write(`${pid}\n`);
}

/**
 * The environment for a child whose start-up is measured (sync's joining device): TMPDIR as the
 * run found it, where the child's TypeScript loader finds the compile cache the run already
 * filled, as it did before there was a run folder; its own files still go to the run folder.
 */
export function measuredChildEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...(outerTmpdir ? { TMPDIR: outerTmpdir } : {}), ...extra };
}
