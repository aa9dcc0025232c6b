import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** One row of the benchmark report. Latencies in ms; `value` for non-latency figures. */
export interface Metric {
  p50_ms?: number;
  p99_ms?: number;
  mean_ms?: number;
  max_ms?: number;
  n?: number;
  value?: number;
  unit?: string;
  /** Human-readable budget, e.g. "p50 ≤ 2 ms". */
  budget?: string;
  /** Whether the figure is within its budget. */
  ok?: boolean;
}

export interface BenchContext {
  record(name: string, metric: Metric): void;
  /** Times fn n times after a warm-up and records p50/p99/mean/max. */
  measure(name: string, fn: () => unknown, options?: MeasureOptions): Promise<Metric>;
  /** For async operations (awaits fn each time). */
  measureAsync(name: string, fn: () => Promise<unknown>, options?: MeasureOptions): Promise<Metric>;
}

export interface MeasureOptions {
  iterations?: number;
  warmup?: number;
  /** Budget on a percentile: { p50: 2 } means p50 ≤ 2 ms. */
  budget?: { p50?: number; p99?: number };
}

/** An option or environment variable a suite reads, as `npm run bench -- --help` lists it. */
export interface SuiteOption {
  /** `--rows N` (a value follows) or `BENCH_SYNC_SKIP_1M=1`. */
  name: string;
  description: string;
}

export interface Suite {
  name: string;
  /** One line for `npm run bench -- --help`: what it measures, and what it needs installed. */
  description: string;
  /** Only what this suite reads; `--json` and `--only` are the runner's. */
  options?: readonly SuiteOption[];
  run(ctx: BenchContext): Promise<void>;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(samples: number[], budget?: MeasureOptions['budget']): Metric {
  const sorted = [...samples].sort((a, b) => a - b);
  const metric: Metric = {
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    mean_ms: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    max_ms: round(sorted.at(-1)!),
    n: sorted.length,
  };
  if (budget) {
    const parts: string[] = [];
    let ok = true;
    if (budget.p50 !== undefined) {
      parts.push(`p50 ≤ ${budget.p50} ms`);
      ok &&= metric.p50_ms! <= budget.p50;
    }
    if (budget.p99 !== undefined) {
      parts.push(`p99 ≤ ${budget.p99} ms`);
      ok &&= metric.p99_ms! <= budget.p99;
    }
    metric.budget = parts.join(', ');
    metric.ok = ok;
  }
  return metric;
}

function round(ms: number): number {
  return Number(ms.toPrecision(4));
}

export function createContext(onRecord: (name: string, metric: Metric) => void): BenchContext {
  return {
    record: onRecord,
    async measure(name, fn, options = {}) {
      const { iterations = 1000, warmup = Math.min(100, iterations) } = options;
      for (let i = 0; i < warmup; i++) fn();
      const samples: number[] = new Array(iterations);
      for (let i = 0; i < iterations; i++) {
        const t0 = performance.now();
        fn();
        samples[i] = performance.now() - t0;
      }
      const metric = summarize(samples, options.budget);
      onRecord(name, metric);
      return metric;
    },
    async measureAsync(name, fn, options = {}) {
      const { iterations = 200, warmup = Math.min(20, iterations) } = options;
      for (let i = 0; i < warmup; i++) await fn();
      const samples: number[] = new Array(iterations);
      for (let i = 0; i < iterations; i++) {
        const t0 = performance.now();
        await fn();
        samples[i] = performance.now() - t0;
      }
      const metric = summarize(samples, options.budget);
      onRecord(name, metric);
      return metric;
    },
  };
}

/**
 * Runs fn while the main event loop's delay is sampled every millisecond: how long fn took,
 * and the loop's p99 and longest delay meanwhile (ms, two decimals).
 */
export async function sampleLoopDelay(fn: () => Promise<unknown>): Promise<{ tookMs: number; p99Ms: number; maxMs: number }> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  // The histogram records the gap between two of its ticks: one tick before and one after,
  // so a stall at the very start or end counts too.
  await pause();
  const t0 = performance.now();
  await fn();
  const tookMs = performance.now() - t0;
  await pause();
  histogram.disable();
  const toMs = (ns: number) => Number((ns / 1e6).toFixed(2));
  return { tookMs, p99Ms: toMs(histogram.percentile(99)), maxMs: toMs(histogram.max) };
}
