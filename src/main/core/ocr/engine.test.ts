import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { groupLines, OcrEngine, ocrSupport, type OcrWord } from './engine';
import { PictureError } from './image-file';

// The real runtime on pictures rendered here. onnxruntime keeps its telemetry off only if the
// setting reaches it before it loads: HOME points at an empty folder before the first worker
// starts in this process, and the test at the end finds it still empty.
const home = mkdtempSync(join(tmpdir(), 'skj-ocr-home-'));
const savedHome = { HOME: process.env['HOME'], XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] };
process.env['HOME'] = home;
delete process.env['XDG_CACHE_HOME'];

const engine = new OcrEngine();
afterAll(async () => {
  await engine.close();
  process.env['HOME'] = savedHome.HOME;
  if (savedHome.XDG_CACHE_HOME !== undefined) process.env['XDG_CACHE_HOME'] = savedHome.XDG_CACHE_HOME;
  rmSync(home, { recursive: true, force: true });
});

/** Lines of text drawn on a plain background, one a row. */
function svg(lines: readonly string[], options: { width?: number; height?: number; background?: string } = {}): Buffer {
  const { width = 540, height = 80 + 60 * lines.length, background = '#ffffff' } = options;
  const rows = lines.map((text, i) => `<text x="24" y="${60 + 60 * i}" font-family="WenQuanYi Micro Hei" font-size="34" fill="#111">${text}</text>`);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${rows.join('')}</svg>`,
  );
}

const texts = (result: { lines: { text: string }[] }) => result.lines.map((l) => l.text.replace(/\s+/g, ''));

describe('OcrEngine reads a picture on the device', () => {
  it('reads the Chinese lines of a payment picture top to bottom, with boxes inside the picture', async () => {
    const png = await sharp(svg(['微信支付 支付成功', '瑞幸咖啡', '¥23.90', '2025年11月27日 12:03']))
      .png()
      .toBuffer();
    const result = await engine.recognize(png);
    expect(texts(result)).toEqual(['微信支付支付成功', '瑞幸咖啡', '￥23.90', '2025年11月27日12:03']);
    expect([result.width, result.height]).toEqual([540, 320]);
    for (const { box, confidence } of result.lines) {
      expect(box.x + box.width).toBeLessThanOrEqual(result.width);
      expect(box.y + box.height).toBeLessThanOrEqual(result.height);
      expect(confidence).toBeGreaterThan(0.5);
    }
    const tops = result.lines.map((l) => l.box.y);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
  });

  it('shrinks a wide picture to 540 px, turns a photo upright by its EXIF orientation and lays a transparent one on white', async () => {
    const wide = await sharp(svg(['实付款 ¥128.00'], { width: 1080, height: 200 }))
      .png()
      .toBuffer();
    const wideResult = await engine.recognize(wide);
    expect(texts(wideResult)).toEqual(['实付款￥128.00']);
    expect([wideResult.width, wideResult.height]).toEqual([540, 100]);

    // Stored turned a quarter to the left, with the tag a camera writes to show it upright.
    const sideways = await sharp(svg(['合计 56.80']))
      .rotate(-90)
      .jpeg({ quality: 90 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(texts(await engine.recognize(sideways))).toEqual(['合计56.80']);

    const transparent = await sharp(svg(['退款成功'], { background: 'none' }))
      .png()
      .toBuffer();
    expect((await sharp(transparent).stats()).isOpaque).toBe(false);
    expect(texts(await engine.recognize(transparent))).toEqual(['退款成功']);
  });

  it('reads pictures one at a time, in the order they were given, each answered with its own lines', async () => {
    const pictures = await Promise.all(
      ['第一张 ¥1.00', '第二张 ¥2.00', '第三张 ¥3.00'].map((t) =>
        sharp(svg([t]))
          .webp({ quality: 90 })
          .toBuffer(),
      ),
    );
    const results = await Promise.all(pictures.map((p) => engine.recognize(p)));
    expect(results.map(texts)).toEqual([['第一张￥1.00'], ['第二张￥2.00'], ['第三张￥3.00']]);
  });

  it('keeps the window answering: the main loop is never held up more than 50 ms (p99) while a picture is read', async () => {
    const png = await sharp(
      svg(['商户全称 永辉超市', '支付方式 招商银行信用卡(0001)', '交易单号 4200002345202511271234567890'], { width: 1080, height: 2400 }),
    )
      .png()
      .toBuffer();
    const fresh = new OcrEngine();
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    try {
      // The first picture starts the worker and loads the models; the second is a warm one.
      for (let i = 0; i < 2; i++) expect(texts(await fresh.recognize(png))[0]).toBe('商户全称永辉超市');
    } finally {
      histogram.disable();
      await fresh.close();
    }
    expect(histogram.count).toBeGreaterThan(100);
    expect(histogram.percentile(99) / 1e6).toBeLessThanOrEqual(50);
  });
});

describe('OcrEngine refuses what is not a picture it reads', () => {
  it('says which pictures it reads, and that a HEIC photo must become a JPG, without starting the worker', async () => {
    const idle = new OcrEngine();
    const heic = Uint8Array.from([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0, ...Buffer.from('mif1heic')]);
    await expect(idle.recognize(heic)).rejects.toThrow(new PictureError('这是 HEIC 格式的照片，请先转成 JPG 再试'));
    const gif = await sharp(svg(['动图']))
      .gif()
      .toBuffer();
    await expect(idle.recognize(gif)).rejects.toThrow(new PictureError('只能读取 PNG、JPEG 或 WebP 格式的图片'));
    await expect(idle.recognize(Buffer.from('瑞幸咖啡 23.90\n'))).rejects.toThrow(PictureError);
    expect(idle.running).toBe(false);
  });

  it('a picture that starts like a PNG but cannot be decoded is 「图片无法读取，可能已损坏」, and the next one is read', async () => {
    const png = await sharp(svg(['支付成功']))
      .png()
      .toBuffer();
    const damaged = Buffer.concat([png.subarray(0, 40), Buffer.alloc(400, 0x5a)]);
    await expect(engine.recognize(damaged)).rejects.toThrow(new PictureError('图片无法读取，可能已损坏'));
    expect(texts(await engine.recognize(png))).toEqual(['支付成功']);
  });
});

describe('OcrEngine manages its worker', () => {
  it('a worker that dies rejects the picture it was reading with a clear error, and the next picture starts a fresh one', async () => {
    // A heap this small holds the models and a small picture, not the arrays of a very long one.
    const small = new OcrEngine({ maxHeapMb: 160 });
    try {
      const note = await sharp(svg(['支付成功 ¥9.90']))
        .png()
        .toBuffer();
      const endless = await sharp(svg(['长截图'], { height: 16_000 }))
        .png()
        .toBuffer();
      expect(texts(await small.recognize(note))).toEqual(['支付成功￥9.90']);
      await expect(small.recognize(endless)).rejects.toThrow('识图程序意外退出了，请再试一次');
      expect(small.running).toBe(false);
      expect(texts(await small.recognize(note))).toEqual(['支付成功￥9.90']);
      expect(small.running).toBe(true);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('stops the worker after idleMs without a picture and starts it again for the next; close() rejects what comes later', async () => {
    const brief = new OcrEngine({ idleMs: 300 });
    const png = await sharp(svg(['饿了么 实付款 ¥35.00']))
      .png()
      .toBuffer();
    expect(brief.running).toBe(false);
    expect(texts(await brief.recognize(png))).toEqual(['饿了么实付款￥35.00']);
    expect(brief.running).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(brief.running).toBe(false);
    expect(texts(await brief.recognize(png))).toEqual(['饿了么实付款￥35.00']);
    const reading = brief.recognize(png);
    await brief.close();
    await expect(reading).rejects.toThrow('识图已停止');
    await expect(brief.recognize(png)).rejects.toThrow('识图已停止');
    expect(brief.running).toBe(false);
  });

  it('the runtime wrote nothing under HOME (its telemetry is off)', () => {
    expect(existsSync(join(home, '.cache', 'Microsoft'))).toBe(false);
    expect(readdirSync(home)).toEqual([]);
  });
});

describe('groupLines', () => {
  const word = (text: string, x: number, y: number, width: number, height: number, slope = 0): OcrWord => ({
    text,
    mean: 0.9,
    box: [
      [x, y],
      [x + width, y + width * slope],
      [x + width, y + width * slope + height],
      [x, y + height],
    ],
  });

  it('keeps each item of a receipt photographed a few degrees turned with its own price', () => {
    // 4° down to the right: a price 300 px to the right sits 21 px lower than its item, closer to the next row's item.
    const slope = Math.tan((4 * Math.PI) / 180);
    const row = (item: string, price: string, y: number) => [word(item, 20, y, 160, 24, slope), word(price, 320, y + 300 * slope, 60, 24, slope)];
    const result = groupLines([...row('农夫山泉', '2.00', 100), ...row('卫龙辣条', '3.50', 130), ...row('实付', '5.50', 160)], 400, 300);
    expect(result.lines.map((l) => l.text)).toEqual(['农夫山泉 2.00', '卫龙辣条 3.50', '实付 5.50']);
  });

  it('drops blank words and keeps boxes inside the picture', () => {
    const result = groupLines([word('  ', 0, 0, 50, 20), word(' 合计 ', -3, 10, 60, 20), word('12.00', 100, 12, 50, 20)], 140, 30);
    expect(result.lines).toEqual([{ text: '合计 12.00', confidence: 0.9, box: { x: 0, y: 10, width: 140, height: 20 } }]);
  });
});

describe('ocrSupport', () => {
  it('is available where onnxruntime-node has a CPU build this install holds, and says why not elsewhere', () => {
    for (const [platform, arch] of [
      ['linux', 'x64'],
      ['linux', 'arm64'],
      ['darwin', 'arm64'],
      ['win32', 'x64'],
      ['win32', 'arm64'],
    ] as const) {
      expect(ocrSupport(platform, arch), `${platform} ${arch}`).toEqual({ available: true, reason: null });
    }
    expect(ocrSupport('darwin', 'x64')).toEqual({ available: false, reason: expect.stringContaining('Intel 芯片 Mac') });
    expect(ocrSupport('win32', 'ia32')).toEqual({ available: false, reason: expect.stringContaining('不支持这个系统（win32 ia32）') });
    expect(ocrSupport('freebsd', 'x64').available).toBe(false);
    expect(ocrSupport()).toEqual({ available: true, reason: null });
  });
});
