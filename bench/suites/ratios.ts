// The project against the raw engine: each pair in bench/ratios/ is the project's own call and
// hand-written code doing the same work (better-sqlite3 with hand-written SQL, or the raw
// sherpa-onnx call), run interleaved in this one process on one seeded ledger, its results
// checked equal first. A ratio says what the project's layers cost over the engine's own speed.
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { percentile, type BenchContext, type Suite } from '../harness';
import { benchTempDir } from '../temp';
import { seedFixture } from '../ratios/fixture';
import type { PairFactory, RatioFixture, RatioPair } from '../ratios/pair';

const DEFAULT_ROWS = 1_000_000;
/** Timed rounds per pair; each is one batch of the project's call and one of the raw side's. */
const ROUNDS = 21;
/** A batch repeats a fast call until it lasts about this long, so timer noise stays small. */
const BATCH_MS = 25;
/** Warm-up before the batch size is chosen: at least this many calls of each side, and this long. */
const WARMUP_CALLS = 3;
const WARMUP_MS = 300;
const BUDGET = 1.2;

const ratioDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'ratios');
/** Not pairs: the contract and the seeding. Any other module without a default factory is a helper and is left out too. */
const NOT_PAIRS = new Set(['pair.ts', 'fixture.ts']);

function rowsOption(): number {
  const args = process.argv.slice(2);
  const at = args.indexOf('--rows');
  const text = at >= 0 ? args[at + 1] : process.env.SKJ_BENCH_ROWS;
  if (text === undefined) return DEFAULT_ROWS;
  const rows = Number(text);
  if (!Number.isInteger(rows) || rows < 1000) throw new Error(`ratios: --rows wants a whole number ≥ 1000, got ${text}`);
  return rows;
}

/** The pair names `--only ratios.x` asks for (a suite-wide --only runs them all). */
function wanted(name: string): boolean {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  return !only?.startsWith('ratios.') || name.startsWith(only) || only.startsWith(`${name}.`);
}

const sorted = (xs: readonly number[]) => [...xs].sort((x, y) => x - y);
const median = (xs: readonly number[]) => percentile(sorted(xs), 50);
/** Three significant figures. */
const fig = (n: number) => Number(n.toPrecision(3));

/** Mean ms per call of `k` calls; the resets between calls are not timed. */
async function batch(fn: () => unknown, k: number, reset: RatioPair['reset']): Promise<number> {
  let total = 0;
  for (let i = 0; i < k; i++) {
    const t0 = performance.now();
    const result = fn();
    if (result instanceof Promise) await result;
    total += performance.now() - t0;
    if (reset) await reset();
  }
  return total / k;
}

/** Where two results first differ, as their JSON around that place (for the failure message). */
function difference(a: unknown, b: unknown): string {
  const x = JSON.stringify(a) ?? String(a);
  const y = JSON.stringify(b) ?? String(b);
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const around = (s: string) => s.slice(Math.max(0, i - 80), i + 80);
  return `at character ${i}:\n  project: …${around(x)}…\n  raw:     …${around(y)}…`;
}

/**
 * One pair: both sides once and compared (a mismatch gives no ratio), a warm-up that also
 * sizes the batches, then ROUNDS rounds alternating which side goes first (project, raw, raw,
 * project, …) so drift in the machine's speed falls on both alike.
 */
async function runPair(ctx: BenchContext, pair: RatioPair): Promise<boolean> {
  const project = () => pair.project();
  const raw = () => pair.raw();
  const a = await pair.project();
  await pair.reset?.();
  const b = await pair.raw();
  await pair.reset?.();
  if (!(pair.same ? pair.same(a, b) : isDeepStrictEqual(a, b))) {
    process.stderr.write(`ratios: ${pair.name}: the project and the raw side give DIFFERENT results, no ratio ${difference(a, b)}\n`);
    ctx.record(pair.name, { unit: 'RESULTS DIFFER: no ratio', budget: `ratio ≤ ${BUDGET}`, ok: false });
    return false;
  }
  const warm = { project: [] as number[], raw: [] as number[] };
  const warmStart = performance.now();
  while (warm.project.length < WARMUP_CALLS || performance.now() - warmStart < WARMUP_MS) {
    warm.project.push(await batch(project, 1, pair.reset));
    warm.raw.push(await batch(raw, 1, pair.reset));
    if (warm.project.length >= 1000) break;
  }
  const slowest = Math.max(median(warm.project), median(warm.raw));
  const k = Math.max(1, Math.min(1000, Math.round(BATCH_MS / Math.max(slowest, 1e-3))));
  const projectMs: number[] = [];
  const rawMs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let p: number;
    let r: number;
    if (round % 2 === 0) {
      p = await batch(project, k, pair.reset);
      r = await batch(raw, k, pair.reset);
    } else {
      r = await batch(raw, k, pair.reset);
      p = await batch(project, k, pair.reset);
    }
    projectMs.push(p);
    rawMs.push(r);
    ratios.push(p / r);
  }
  const ratio = fig(median(ratios));
  ctx.record(pair.name, {
    p50_ms: fig(median(projectMs)),
    n: ROUNDS * k,
    value: ratio,
    unit: `× raw ${fig(median(rawMs))} ms (p10–p90 ${fig(percentile(sorted(ratios), 10))}–${fig(percentile(sorted(ratios), 90))})`,
    budget: `ratio ≤ ${BUDGET}`,
    ok: ratio <= BUDGET,
  });
  return true;
}

const suite: Suite = {
  name: 'ratios',
  description: "The project's calls against hand-written SQL (or the raw sherpa-onnx call) doing the same work, interleaved: each ratio",
  options: [{ name: '--rows N', description: 'seed N rows instead of 1 000 000, for a quick run (or SKJ_BENCH_ROWS=N)' }],
  async run(ctx) {
    const rows = rowsOption();
    const files = readdirSync(ratioDir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !NOT_PAIRS.has(f))
      .sort();
    const dir = benchTempDir('ratios-');
    let fixture: RatioFixture | undefined;
    const pairs: RatioPair[] = [];
    const differ: string[] = [];
    try {
      const t0 = performance.now();
      fixture = seedFixture(dir, rows);
      ctx.record('ratios.ledgerRows', { value: rows, unit: `rows, seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s` });
      for (const file of files) {
        const mod = (await import(pathToFileURL(join(ratioDir, file)).href)) as { default?: PairFactory };
        if (typeof mod.default !== 'function') continue;
        const made = await mod.default(fixture);
        if (typeof made === 'string') {
          process.stderr.write(`ratios: ${file} skipped: ${made}\n`);
          continue;
        }
        for (const pair of Array.isArray(made) ? made : [made]) {
          pairs.push(pair);
          if (wanted(pair.name) && !(await runPair(ctx, pair))) differ.push(pair.name);
        }
      }
    } finally {
      for (const pair of pairs) await pair.dispose?.();
      fixture?.ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
    // After every other pair has been measured: no ratio stands for different results.
    if (differ.length > 0) throw new Error(`ratios: the project and the raw side give different results for ${differ.join(', ')}`);
  },
};

export default suite;
