import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ocrSupport } from '@core/ocr/engine';
import { renderPictures, type RenderedPicture } from '../test/support/ocr-pictures';

const root = fileURLToPath(new URL('..', import.meta.url));
const NOW = '2026-11-28T10:00:00+08:00';
const support = ocrSupport();

function runTool(args: string[]) {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'tools/ocr.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe.skipIf(!support.available)(
  support.available ? 'npm run -s ocr -- FILE' : `npm run -s ocr — skipped: ${support.reason ?? 'no OCR runtime'}`,
  () => {
    let pictures: Map<string, RenderedPicture>;
    const scratch = mkdtempSync(join(tmpdir(), 'skj-ocr-cli-'));
    // The first call renders every test picture in Chromium (cached after that).
    beforeAll(async () => {
      pictures = new Map((await renderPictures(['wechat-success-coffee', 'chat-dinner'])).map((p) => [p.id, p]));
    }, 240_000);
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('prints one JSON line: the lines read and the parse shape plus account and merchant', () => {
      const { code, stdout, stderr } = runTool([pictures.get('wechat-success-coffee.light.rotated')!.file, '--now', NOW]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout.endsWith('\n')).toBe(true);
      expect(stdout.trimEnd().split('\n')).toHaveLength(1);
      const answer = JSON.parse(stdout) as { lines: string[]; transactions: Record<string, unknown>[] };
      expect(answer.lines).toContain('支付成功');
      expect(answer.transactions).toEqual([
        expect.objectContaining({ amount: 23.9, type: 'EXPENSE', category: '餐饮', description: '瑞幸咖啡', account: '微信', merchant: '瑞幸咖啡' }),
      ]);
      for (const key of ['amount', 'type', 'category', 'date', 'description', 'account', 'merchant'])
        expect(answer.transactions[0]).toHaveProperty(key);
    }, 120_000);

    it('a picture with no payment (a chat about money) prints no transaction', () => {
      const { code, stdout } = runTool([pictures.get('chat-dinner.light.plain')!.file, '--now', NOW]);
      expect(code).toBe(0);
      const answer = JSON.parse(stdout) as { lines: string[]; transactions: unknown[] };
      expect(answer.lines.join('')).toContain('吃饭花了60');
      expect(answer.transactions).toEqual([]);
    }, 120_000);

    it('a file that is not a picture exits 1 with one line on stderr', () => {
      const renamed = join(scratch, 'bill.png');
      writeFileSync(renamed, '日期,金额\n2026-11-27,23.90\n');
      const { code, stdout, stderr } = runTool([renamed]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/PNG、JPEG 或 WebP/);
    }, 120_000);

    it('a missing file exits 1, a bad --now exits 2', () => {
      expect(runTool([join(scratch, 'nothing.png')]).code).toBe(1);
      const bad = runTool([join(scratch, 'nothing.png'), '--now', 'yesterday']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--now/);
    }, 120_000);
  },
);
