// `npm run -s ocr -- FILE` — reads a payment screenshot or a receipt exactly as the app does
// (the on-device recognizer in its worker, then the picture reader over the preset book) and
// prints one JSON line, so a picture's reading can be checked from the shell.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseZonedIso, systemNow } from '@shared/time';
import { OcrEngine, ocrSupport } from '@core/ocr/engine';
import { PictureError, sniffImage } from '@core/ocr/image-file';
import { presetPictureContext, readPicture } from '@core/ocr/read-picture';
import type { PictureDraft } from '@core/ocr/types';

export const USAGE = `Usage: npm run ocr -- FILE [--now ISO] [--total]

Reads a PNG, JPEG or WebP picture on this device and prints one JSON line (npm run -s: only that line):
  {"kind": …, "lines": ["…"], "transactions": [{"amount", "type", "category", "date", "time",
   "description", "account", "merchant"}], "notes": ["…"]}
amount is in yuan, or null when it could not be read; a picture with no payment prints
"transactions": [].

Options:
  --now ISO   the moment the picture is read, with its UTC offset (default: now); a picture
              without a date is of that day, one without a year of that year
  --total     a receipt gives one draft for what was paid, not one per item line
  --help      this text

Examples:
  npm run -s ocr -- ~/Pictures/wechat-pay.png
  npm run -s ocr -- receipt.jpg --now 2026-11-28T10:00:00+08:00 --total

Exit: 0 read (with or without a payment), 1 not a picture or unreadable, 2 usage.`;

/** The parse answer's fields (amount in yuan), then what only a picture says. */
function transaction(d: PictureDraft): Record<string, unknown> {
  const t: Record<string, unknown> = {
    amount: d.amount,
    type: d.type,
    category: d.category,
    date: d.date,
    time: d.time,
    description: d.description,
    account: d.account,
    merchant: d.merchant,
  };
  if (d.flow) t.flow = d.flow;
  if (d.counterparty) t.counterparty = d.counterparty;
  return t;
}

function fail(message: string, code: number): number {
  process.stderr.write(`${message}\n`);
  return code;
}

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const at = argv.indexOf('--now');
  const nowText = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && nowText === undefined) return fail('--now needs an ISO time with its offset, e.g. 2026-11-28T10:00:00+08:00', 2);
  const files = argv.filter((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1));
  if (files.length !== 1) return fail(`${files.length === 0 ? 'missing FILE' : 'one FILE only'}\n${USAGE}`, 2);
  const now = nowText === undefined ? systemNow() : parseZonedIso(nowText);
  if (!now) return fail(`--now is not an ISO time with an offset: ${nowText}`, 2);

  const support = ocrSupport();
  if (!support.available) return fail(support.reason ?? '此平台无法识别图片', 1);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(files[0]!);
  } catch (error) {
    return fail(`无法读取文件：${(error as Error).message}`, 1);
  }
  const engine = new OcrEngine();
  try {
    sniffImage(bytes);
    const result = await engine.recognize(bytes);
    const context = { ...presetPictureContext(now), receiptLines: argv.includes('--total') ? ('total' as const) : ('items' as const) };
    const reading = readPicture(result.lines, context);
    const answer = {
      kind: reading.kind,
      lines: result.lines.map((l) => l.text),
      transactions: reading.drafts.map(transaction),
      notes: reading.notes,
    };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof PictureError) return fail(error.message, 1);
    throw error;
  } finally {
    await engine.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
