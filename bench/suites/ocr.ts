// On-device picture recognition (src/main/core/ocr/engine.ts) on the two pictures the issue
// budgets: a 1080 × 2400 payment screenshot and a photographed supermarket receipt, both
// rendered by the picture tests (test/support/ocr-pictures.ts). Per picture the time to its
// lines once the worker is warm; the memory the recognizer adds to the process; the main
// thread's event-loop delay meanwhile (the proof that the window keeps answering).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { OCR_WIDTH, OcrEngine } from '@core/ocr/engine';
import { renderPictures, type RenderedPicture } from '../../test/support/ocr-pictures';
import { summarize, type BenchContext, type Suite } from '../harness';

const RUNS = 7;
const MB = 1024 * 1024;

function widthOption(): number {
  const args = process.argv.slice(2);
  const at = args.indexOf('--ocr-width');
  if (at < 0) return OCR_WIDTH;
  const width = Number(args[at + 1]);
  if (!Number.isInteger(width) || width < 160) throw new Error(`ocr: --ocr-width wants a whole number of pixels ≥ 160, got ${args[at + 1]}`);
  return width;
}

/**
 * The process's peak resident memory from here on: Linux keeps it (VmHWM) and resets it on
 * request; elsewhere the RSS is sampled every 10 ms.
 */
function peakRss(): { stop: () => number } {
  if (existsSync('/proc/self/clear_refs')) {
    writeFileSync('/proc/self/clear_refs', '5');
    return {
      stop: () => {
        const kb = /VmHWM:\s*(\d+)\s*kB/.exec(readFileSync('/proc/self/status', 'utf8'));
        return kb ? Number(kb[1]) * 1024 : process.memoryUsage.rss();
      },
    };
  }
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

/** The amounts the picture's drafts hold, as the page prints them (23.9 → '23.90'). */
const amountsOf = (picture: RenderedPicture) => picture.case.expected.map((d) => d.amount.toFixed(2));

async function run(ctx: BenchContext, width: number): Promise<void> {
  const pictures = await renderPictures(['bench-screenshot', 'bench-receipt-photo']);
  const kinds = new Map([
    ['bench-screenshot', 'ocr.screenshot1080x2400'],
    ['bench-receipt-photo', 'ocr.receiptPhoto'],
  ]);
  const files = pictures.map((p) => ({ picture: p, bytes: readFileSync(p.file), metric: kinds.get(p.case.id)! }));
  const before = process.memoryUsage.rss();
  const peak = peakRss();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const engine = new OcrEngine({ width });
  let amountsRead = 0;
  let amounts = 0;
  try {
    histogram.enable();
    const t0 = performance.now();
    await engine.recognize(files[0]!.bytes);
    ctx.record('ocr.coldStart', { value: Math.round(performance.now() - t0), unit: 'ms: worker start, models loaded, first picture read' });
    for (const { picture, bytes, metric } of files) {
      const text = (await engine.recognize(bytes)).lines.map((l) => l.text.replace(/\s+/g, '')).join('\n');
      const expected = amountsOf(picture);
      amounts += expected.length;
      amountsRead += expected.filter((a) => text.includes(a)).length;
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        await engine.recognize(bytes);
        samples.push(performance.now() - start);
      }
      ctx.record(metric, summarize(samples, { p50: 2000 }));
    }
    histogram.disable();
  } finally {
    await engine.close();
  }
  const addedMb = Math.round((peak.stop() - before) / MB);
  ctx.record('ocr.memoryAdded', { value: addedMb, unit: 'MB (peak RSS while reading, minus before)', budget: '≤ 800 MB', ok: addedMb <= 800 });
  const p99 = Number((histogram.percentile(99) / 1e6).toFixed(2));
  ctx.record('ocr.mainLoopDelay', { p99_ms: p99, max_ms: Number((histogram.max / 1e6).toFixed(2)), budget: 'p99 ≤ 50 ms', ok: p99 <= 50 });
  ctx.record('ocr.amountsRead', { value: amountsRead, unit: `of ${amounts} amounts on the pictures read exactly (width ${width} px)` });
}

const suite: Suite = {
  name: 'ocr',
  description:
    'Picture recognition on the device: a 1080 × 2400 screenshot and a receipt photo (p50), memory added, main-loop delay (renders its pictures with Chromium once)',
  options: [{ name: '--ocr-width N', description: `shrink pictures to N px wide instead of ${OCR_WIDTH}, to compare widths` }],
  run: (ctx) => run(ctx, widthOption()),
};

export default suite;
