// The picture tests' own pictures: the pages of test/ocr/templates.ts rendered by headless
// Chromium (fonts-wqy-microhei), then turned with sharp into what users send — a slightly
// rotated screenshot, a noisy JPEG, a receipt photographed on a table. Rendering takes a
// while, so the files are kept under the system's temp folder, keyed by a hash of the
// templates, the cases and this file: a second run renders nothing.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { chromium, type Browser } from 'playwright-core';
import type { TransactionType } from '@shared/domain';
import type { PictureKind } from '@core/ocr/types';
import { PAGE_BACKGROUND, TEMPLATES, type TemplateParams, type Theme } from '../ocr/templates';
import { prng } from './prng';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export type Variant = 'plain' | 'rotated' | 'noisy' | 'photo';

/** A draft a picture should give, as cases.json writes it. */
export interface ExpectedDraft {
  amount: number;
  type: TransactionType;
  date: string;
  time: string | null;
  merchant: string;
  category: string;
  account: string | null;
  flow?: 'refund';
}

export interface PictureCase {
  id: string;
  template: string;
  params: TemplateParams;
  /** What the reader should say the picture is; null: no payment (a chat, noise, no picture at all). */
  kind: PictureKind | null;
  /** 'theme/variant' pairs to render, e.g. 'dark/noisy'. */
  renders: string[];
  /** One draft per payment or, on a receipt read by its items, per item line. */
  expected: ExpectedDraft[];
  /** A receipt read for what was paid (receiptLines 'total'): its one draft. */
  total?: ExpectedDraft;
  /** More item lines than the card holds: the reader groups them (the sums per category stay). */
  grouped?: boolean;
  /** Texts the reading's notes must hold (the difference of a receipt that does not add up). */
  notes?: string[];
}

export interface RenderedPicture {
  /** `${case id}.${theme}.${variant}` */
  id: string;
  file: string;
  variant: Variant;
  theme: Theme;
  case: PictureCase;
}

interface CaseFile {
  now: string;
  cases: PictureCase[];
}

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CASES_FILE = join(HERE, '../ocr/cases.json');
const SOURCES = [CASES_FILE, join(HERE, '../ocr/templates.ts'), fileURLToPath(import.meta.url)];

/** The cases and the `now` the reader is given for them (pictures without a year, like an SMS). */
export function pictureCases(): CaseFile {
  return JSON.parse(readFileSync(CASES_FILE, 'utf8')) as CaseFile;
}

/** Where this version of the pictures lives. */
export function pictureDir(): string {
  const hash = createHash('sha256');
  for (const file of SOURCES) hash.update(readFileSync(file));
  return join(tmpdir(), 'skj-ocr-pictures', hash.digest('hex').slice(0, 16));
}

/**
 * Every picture of the cases (or of the cases named by `ids`), rendered once and then read
 * from the cache. Several processes may ask at once: each renders into its own folder and the
 * first to finish names it.
 */
export async function renderPictures(ids?: readonly string[]): Promise<RenderedPicture[]> {
  const { cases } = pictureCases();
  const dir = pictureDir();
  if (!existsSync(join(dir, 'done'))) {
    const scratch = `${dir}.${process.pid}.${Date.now()}`;
    mkdirSync(scratch, { recursive: true });
    try {
      await renderAll(cases, scratch);
      writeFileSync(join(scratch, 'done'), '');
      try {
        renameSync(scratch, dir);
        pruneOldVersions(dir);
      } catch (error) {
        // Another process named its copy first: the same pictures.
        if (!existsSync(join(dir, 'done'))) throw error;
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const wanted = ids ? new Set(ids) : null;
  const unknown = ids?.filter((id) => !cases.some((c) => c.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`no picture case ${unknown.join(', ')}`);
  return cases
    .filter((c) => !wanted || wanted.has(c.id))
    .flatMap((c) =>
      c.renders.map((render) => {
        const [theme, variant] = splitRender(render);
        const id = `${c.id}.${theme}.${variant}`;
        return { id, file: join(dir, fileName(id, c, variant)), variant, theme, case: c };
      }),
    );
}

/**
 * Pictures of earlier templates and cases are not asked for again once a day has passed (a
 * process started before an edit may still be reading its own version).
 */
function pruneOldVersions(dir: string): void {
  const parent = dirname(dir);
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const name of readdirSync(parent)) {
    if (name === basename(dir)) continue;
    const path = join(parent, name);
    if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
  }
}

function splitRender(render: string): [Theme, Variant] {
  const [theme, variant] = render.split('/');
  if ((theme !== 'light' && theme !== 'dark') || !['plain', 'rotated', 'noisy', 'photo'].includes(variant ?? '')) {
    throw new Error(`bad render ${render}: theme/variant`);
  }
  return [theme, variant as Variant];
}

function fileName(id: string, c: PictureCase, variant: Variant): string {
  if (c.template === 'text-file') return `${id}.png`;
  return `${id}.${variant === 'noisy' || variant === 'photo' ? 'jpg' : 'png'}`;
}

async function renderAll(cases: readonly PictureCase[], dir: string): Promise<void> {
  let browser: Browser | null = null;
  try {
    for (const c of cases) {
      const renders = c.renders.map(splitRender);
      for (const theme of new Set(renders.map(([t]) => t))) {
        let png: Buffer;
        if (c.template === 'text-file') png = Buffer.from('这不是一张图片，只是改了扩展名的文本文件。\n金额 ¥12.00\n', 'utf8');
        else if (c.template === 'noise') png = await noisePicture(c);
        else {
          browser ??= await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
          png = await screenshot(browser, c, theme);
        }
        for (const [t, variant] of renders) {
          if (t !== theme) continue;
          const id = `${c.id}.${theme}.${variant}`;
          const bytes = c.template === 'text-file' ? png : await vary(png, variant, theme, id);
          writeFileSync(join(dir, fileName(id, c, variant)), bytes);
        }
      }
    }
  } finally {
    await browser?.close();
  }
}

async function screenshot(browser: Browser, c: PictureCase, theme: Theme): Promise<Buffer> {
  const template = TEMPLATES[c.template];
  if (!template) throw new Error(`${c.id}: no template ${c.template}`);
  const page = template(c.params, theme);
  const context = await browser.newContext({
    viewport: { width: page.width, height: page.height || 200 },
    deviceScaleFactor: page.scale,
    colorScheme: theme,
  });
  try {
    const tab = await context.newPage();
    await tab.setContent(page.html, { waitUntil: 'load' });
    // A string: this file is type-checked without the DOM's types.
    await tab.evaluate('document.fonts.ready.then(() => true)');
    // A slip is as long as what is printed on it.
    return await tab.screenshot({ type: 'png', fullPage: page.height === 0 });
  } finally {
    await context.close();
  }
}

function seedOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32LE(0);
}

async function vary(png: Buffer, variant: Variant, theme: Theme, id: string): Promise<Buffer> {
  const random = prng(seedOf(id));
  switch (variant) {
    case 'plain':
      return png;
    case 'rotated': {
      // 1–3°, either way, the corners filled with the page's own colour.
      const angle = (1 + 2 * random()) * (random() < 0.5 ? -1 : 1);
      return sharp(png).rotate(angle, { background: PAGE_BACKGROUND[theme] }).png().toBuffer();
    }
    case 'noisy':
      return withNoise(png, random, 14, 45);
    case 'photo':
      return photographed(png, random);
  }
}

/** Gaussian-like grain (the sum of three uniform draws) and a low-quality JPEG. */
async function withNoise(image: Buffer, random: () => number, sigma: number, quality: number): Promise<Buffer> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i++) {
    const grain = (random() + random() + random() - 1.5) * 2 * sigma;
    data[i] = Math.max(0, Math.min(255, Math.round(data[i]! + grain)));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * A slip photographed on a table: turned a few degrees, on a darker uneven background, a
 * little soft and dim, with sensor grain, saved as a phone camera's JPEG.
 */
async function photographed(slip: Buffer, random: () => number): Promise<Buffer> {
  const angle = (2 + 2 * random()) * (random() < 0.5 ? -1 : 1);
  const turned = await sharp(slip)
    .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = turned.info;
  const margin = Math.round(width * 0.09);
  const canvasWidth = width + 2 * margin;
  const canvasHeight = height + 2 * margin;
  const table = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${canvasWidth}" height="${canvasHeight}">
      <defs><radialGradient id="g" cx="40%" cy="35%" r="80%"><stop offset="0" stop-color="#7a6a58"/><stop offset="1" stop-color="#3b3028"/></radialGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const laid = await sharp(table)
    .composite([{ input: turned.data, left: margin, top: margin }])
    .png()
    .toBuffer();
  // A second pipeline: sharp resizes before it composites.
  const scene = await sharp(laid)
    .blur(0.8)
    .modulate({ brightness: 0.92 })
    // A phone camera's picture is larger than the slip's print resolution.
    .resize({ width: Math.round(canvasWidth * 1.4) })
    .png()
    .toBuffer();
  return withNoise(scene, random, 8, 82);
}

async function noisePicture(c: PictureCase): Promise<Buffer> {
  const width = Number(c.params['width'] ?? 540);
  const height = Number(c.params['height'] ?? 960);
  const random = prng(seedOf(c.id));
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
