// 截图记账 through the real composition root: IPC dispatch → picture handlers → the reader →
// the session's card → the undoable ledger in a SQLite file, with the picture kept in the
// book's folder. The recognizer is scripted (the lines a screenshot gives) except in the last
// test, which renders a picture and reads it with the real engine.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { VoiceSnapshot } from '@shared/ipc/index';
import { createAppCore, type AppCore } from '../app-core';
import { OcrEngine, ocrSupport } from '../ocr/engine';
import type { OcrLine, OcrResult } from '../ocr/types';
import { billRow } from '../../../../test/support/ledger-fixtures';
import { refused, valueOf } from '../../../../test/support/dispatch';

const cores: { core: AppCore; dir: string }[] = [];
afterEach(async () => {
  for (const { core, dir } of cores.splice(0)) {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A PNG's signature and a few bytes: what the sniffing reads; the scripted recognizer reads nothing. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8]);

const line = (text: string, i: number): OcrLine => ({ text, confidence: 0.99, box: { x: 20, y: 40 + i * 40, width: 300, height: 24 } });
const page = (...texts: string[]): OcrResult => ({ lines: texts.map(line), width: 540, height: 1200 });

/** A WeChat Pay 支付成功 screen: 瑞幸咖啡 ¥23.90 at 2026-02-16 12:03:20. */
const COFFEE = page(
  '支付成功',
  '瑞幸咖啡',
  '¥23.90',
  '支付时间',
  '2026年2月16日 12:03:20',
  '支付方式',
  '零钱',
  '商户全称',
  '瑞幸咖啡（北京）有限公司',
);
/** A supermarket's slip: three lines that add up to 合计 28.50, 优惠 2.00, 实付 26.50. */
const RECEIPT = page(
  '永辉超市',
  '收银小票 流水号 000123',
  '2026-02-16 18:20:05',
  '牛奶 1 12.50 12.50',
  '面包 1 8.00 8.00',
  '鸡蛋 1 8.00 8.00',
  '合计 28.50',
  '优惠 2.00',
  '实付 26.50',
  '谢谢惠顾',
);
const CHAT = page('小李', '明天几点出发？', '八点在楼下见', '好的');

function boot(options: { recognize?: (bytes: Uint8Array) => Promise<OcrResult>; pickPath?: string | null; available?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'skj-pictures-'));
  // 2026-02-17 12:00 in Beijing.
  const clock = new FakeClock(Date.parse('2026-02-17T04:00:00Z'));
  const spoken: string[] = [];
  let next: OcrResult = COFFEE;
  const now = () => ({ epochMs: clock.now(), offsetMinutes: 480 });
  const core = createAppCore({
    dataDir: dir,
    version: 'test',
    log: () => {},
    backups: false,
    voice: {
      understanding: { mode: 'offline' },
      tts: { engine: 'log', log: (text) => spoken.push(text) },
      clock,
      now,
    },
    // The books live in Beijing time too.
    recurring: { clock, now },
    ocr: {
      support: () =>
        options.available === false ? { available: false, reason: '识图组件没有装全，请重新安装随口记' } : { available: true, reason: null },
      recognize: options.recognize ?? (async () => next),
    },
    ...(options.pickPath !== undefined ? { choosePicturePath: async () => options.pickPath ?? null } : {}),
  });
  cores.push({ core, dir });
  const call = <T = VoiceSnapshot>(name: string, input: unknown) => valueOf<T>(core.dispatch, name, input);
  return {
    core,
    dir,
    spoken,
    call,
    show: (result: OcrResult) => {
      next = result;
    },
    attachmentFiles: () => (existsSync(join(dir, 'attachments')) ? readdirSync(join(dir, 'attachments')) : []),
  };
}

describe('pictures through IPC', () => {
  it('a payment screenshot becomes a draft on the card, takes a typed correction, and is kept with the saved entry', async () => {
    const t = boot();
    let snap = await t.call('pictureRead', { bytes: PNG, name: '微信支付.png' });
    expect(snap.state).toBe('confirming');
    expect(snap.batch?.picture).toEqual({ name: '微信支付.png' });
    expect(snap.batch?.items.map((i) => i.result)).toMatchObject([
      { amount: 23.9, type: 'EXPENSE', category: '餐饮', date: '2026-02-16', time: '12:03:20', merchant: '瑞幸咖啡' },
    ]);
    expect(snap.batch?.items[0]?.result.maybeRecorded).toBeUndefined();
    expect(t.spoken.at(-1)).toContain('23.9');
    // Nothing is written before the card is confirmed.
    expect(t.attachmentFiles()).toEqual([]);

    snap = await t.call('voiceText', { text: '金额改成15' });
    expect(snap.batch?.items[0]?.result.amount).toBe(15);
    snap = await t.call('voiceText', { text: '确认' });
    expect(snap.batch).toBeNull();

    const [row] = t.core.ledger.list({}).rows;
    expect(row).toMatchObject({ amountFen: 1500, date: '2026-02-16', occurredAt: '2026-02-16T12:03:20+08:00', attachment: { mime: 'image/png' } });
    expect(t.attachmentFiles()).toEqual([`${row!.attachment!.id}.png`]);
    const kept = await t.call<{ mime: string; bytes: Uint8Array; text: string } | null>('attachmentGet', { transactionId: row!.id });
    expect(kept?.mime).toBe('image/png');
    expect([...kept!.bytes]).toEqual([...PNG]);
    expect(kept?.text.split('\n')).toEqual(COFFEE.lines.map((l) => l.text));
    // The merchant read off the picture is remembered like a bill's: moving the row teaches the category.
    t.core.history.updateTransaction(row!.id, { category: '购物' });
    expect(t.core.ledger.merchantRules()).toMatchObject([{ merchant: '瑞幸咖啡', category: '购物' }]);
  });

  it('a receipt’s lines take the card’s corrections by number; the kept picture goes with every saved line, and survives the session', async () => {
    const t = boot();
    t.show(RECEIPT);
    let snap = await t.call('pictureRead', { bytes: PNG, name: '小票.jpg' });
    expect(snap.batch?.items.length).toBeGreaterThanOrEqual(3);
    const before = snap.batch!.items.length;
    snap = await t.call('voiceText', { text: '第二笔改成十五' });
    expect(snap.batch?.items[1]?.result.amount).toBe(15);
    snap = await t.call('voiceText', { text: '删掉第三笔' });
    expect(snap.batch?.items[2]?.status).toBe('cancelled');
    // The session ends (as after three idle minutes); the next one opens with the card and its picture.
    await t.call('voiceAction', { action: 'exit' });
    snap = await t.call('voiceAction', { action: 'restart' });
    expect(snap.batch?.picture).toEqual({ name: '小票.jpg' });
    snap = await t.call('voiceText', { text: '确认' });
    expect(snap.batch).toBeNull();
    const rows = t.core.ledger.list({}).rows;
    expect(rows).toHaveLength(before - 1);
    expect(rows.map((r) => r.amountFen)).toContain(1500);
    expect(new Set(rows.map((r) => r.attachment?.id)).size).toBe(1);
    expect(rows[0]?.attachment).toBeDefined();
    expect(t.attachmentFiles()).toHaveLength(1);
  });

  it('a cancelled card keeps nothing; a row without a picture has no attachment', async () => {
    const t = boot();
    await t.call('pictureRead', { bytes: PNG, name: 'a.png' });
    const snap = await t.call('voiceText', { text: '取消' });
    expect(snap.batch).toBeNull();
    expect(t.core.ledger.count()).toBe(0);
    expect(t.attachmentFiles()).toEqual([]);
    await t.call('voiceText', { text: '午饭35' });
    await t.call('voiceText', { text: '确认' });
    const [row] = t.core.ledger.list({}).rows;
    expect(row?.attachment).toBeUndefined();
    expect(await t.call('attachmentGet', { transactionId: row!.id })).toBeNull();
  });

  it('a picture with no payment, or a card still open, leaves the card as it was with a clear line', async () => {
    const t = boot();
    t.show(CHAT);
    expect(await t.core.dispatch('pictureRead', { bytes: PNG, name: 'chat.png' })).toEqual(refused('no_payment', /^图片里没有找到付款信息$/));
    expect((await t.call('voiceSnapshot', {})).batch).toBeNull();

    const typed = await t.call('voiceText', { text: '打车20' });
    t.show(COFFEE);
    expect(await t.core.dispatch('pictureRead', { bytes: PNG, name: 'b.png' })).toEqual(refused('card_busy', /先确认或取消/));
    expect((await t.call('voiceSnapshot', {})).batch).toEqual(typed.batch);
  });

  it('refuses what is not a PNG, JPEG or WebP, and a picture past the size limit, before reading it', async () => {
    let reads = 0;
    const t = boot({
      recognize: async () => {
        reads++;
        return COFFEE;
      },
    });
    const text = new TextEncoder().encode('这不是图片');
    expect(await t.core.dispatch('pictureRead', { bytes: text, name: 'a.png' })).toEqual(refused('bad_picture', /PNG、JPEG 或 WebP/));
    const heic = new Uint8Array([0, 0, 0, 24, ...new TextEncoder().encode('ftypheic'), 0, 0, 0, 0, ...new TextEncoder().encode('mif1heic')]);
    expect(await t.core.dispatch('pictureRead', { bytes: heic, name: 'IMG_0001.HEIC' })).toEqual(refused('bad_picture', /HEIC.*JPG/));
    const huge = new Uint8Array(30 * 1024 * 1024 + 1);
    huge.set(PNG);
    expect(await t.core.dispatch('pictureRead', { bytes: huge, name: 'big.png' })).toEqual(refused('validation_failed', /30 MB/));
    expect(await t.core.dispatch('pictureRead', { bytes: 'iVBORw0KGgo=', name: 'a.png' })).toEqual(refused('validation_failed', /图片数据无效/));
    expect(reads).toBe(0);
  });

  it('says where pictures cannot be read, and refuses to read them there', async () => {
    const t = boot({ available: false });
    expect(await t.call('pictureSupport', {})).toEqual({ available: false, reason: '识图组件没有装全，请重新安装随口记' });
    expect(await t.core.dispatch('pictureRead', { bytes: PNG, name: 'a.png' })).toEqual(refused('picture_unsupported', /没有装全/));
  });

  it('打开图片… reads the chosen file, and a closed dialog changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skj-picture-file-'));
    try {
      const file = join(dir, '账单详情.png');
      writeFileSync(file, PNG);
      const t = boot({ pickPath: file });
      const snap = await t.call<VoiceSnapshot | null>('pictureOpen', {});
      expect(snap?.batch?.picture).toEqual({ name: '账单详情.png' });
      const closed = boot({ pickPath: null });
      expect(await closed.call('pictureOpen', {})).toBeNull();
      expect((await closed.call('voiceSnapshot', {})).batch).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('marks a draft whose payment the book holds already (imported from the bill) 「可能已记过」', async () => {
    const t = boot();
    t.core.ledger.importRows([
      billRow({ amountFen: 2390, date: '2026-02-16', time: '12:04:10', merchant: '瑞幸咖啡(国贸店)', description: '生椰拿铁', account: '钱包' }),
    ]);
    const snap = await t.call('pictureRead', { bytes: PNG, name: 'a.png' });
    expect(snap.batch?.items[0]?.result.maybeRecorded).toBe('可能已记过：2月16日 12:04 瑞幸咖啡(国贸店) ¥23.90');
    expect(t.spoken.at(-1)).toContain('这笔可能已经记过了');
  });
});

const support = ocrSupport();

describe.skipIf(!support.available)(`the real recognizer${support.available ? '' : ` (skipped: ${support.reason})`}`, () => {
  it('reads a rendered payment screenshot into a draft on the card', async () => {
    const { default: sharp } = await import('sharp');
    const texts = ['支付成功', '瑞幸咖啡', '¥23.90', '支付时间 2026年2月16日 12:03:20', '支付方式 零钱'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="540" height="420"><rect width="100%" height="100%" fill="#fff"/>${texts
      .map((text, i) => `<text x="40" y="${70 + i * 70}" font-family="WenQuanYi Micro Hei" font-size="30" fill="#111">${text}</text>`)
      .join('')}</svg>`;
    const bytes = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    const engine = new OcrEngine({ idleMs: 1_000 });
    try {
      const t = boot({ recognize: (b) => engine.recognize(b) });
      const snap = await t.call('pictureRead', { bytes, name: 'rendered.png' });
      expect(snap.batch?.items.map((i) => i.result)).toMatchObject([{ amount: 23.9, type: 'EXPENSE', date: '2026-02-16', merchant: '瑞幸咖啡' }]);
    } finally {
      await engine.close();
    }
  }, 60_000);
});
