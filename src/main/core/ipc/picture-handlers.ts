// 截图记账: a picture dropped, pasted or opened becomes drafts on the session's card, read on
// this computer (the OCR worker, then the pure reader with the book's categories, merchant
// memory and accounts); the picture waits with the card and is kept with the entries saved
// from it. A draft the book may hold already says so (「可能已记过」).
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ParseResult } from '@shared/domain';
import type { ReceiptLines } from '@shared/ipc/app-settings';
import type { PictureSupport, VoiceSnapshot } from '@shared/ipc/index';
import type { PICTURE_COMMANDS } from '@shared/ipc/pictures.names';
import { yuanToFen } from '@shared/money';
import type { ZonedNow } from '@shared/time';
import type { Ledger } from '../ledger/index';
import type { Categorizer } from '../ledger/bills/bill-categories';
import { createWordCategorizer } from '../ledger/bills/words';
import { recordedText } from '../ledger/recorded-like';
import { MAX_PICTURE_BYTES, PICTURE_MESSAGES, PictureError, sniffImage } from '../ocr/image-file';
import { readPicture, type PictureContext } from '../ocr/read-picture';
import type { OcrResult, PictureDraft } from '../ocr/types';
import type { PictureCard, PictureOutcome } from '../voice/picture-card';
import { CommandError, type AreaHandlers } from './types';

type PictureCommand = (typeof PICTURE_COMMANDS)[number];

/** The session side of a picture: its drafts onto the card (VoiceSessionManager). */
export interface PictureSession {
  submitPicture(card: PictureCard): Promise<PictureOutcome>;
  snapshot(): VoiceSnapshot;
}

/** What reading pictures needs, one set per app (the engine is shared by every book). */
export interface PictureReader {
  /** Whether pictures can be read here (ocrSupport()). */
  support(): PictureSupport;
  /** The recognizer (OcrEngine.recognize); throws PictureError for a picture it will not read. */
  recognize(bytes: Uint8Array): Promise<OcrResult>;
  receiptLines(): ReceiptLines;
  now(): ZonedNow;
  /** The shell's open dialog for a picture; absent where no shell runs. */
  choosePicturePath?: () => Promise<string | null>;
  log?: (message: string, err?: unknown) => void;
}

export interface PictureHandlerDeps {
  ledger: Ledger;
  /** Absent: pictures are not read (a tool, a test of another area). */
  pictures?: PictureReader;
  /** The voice session the card lives in (absent while it could not be made). */
  pictureSession?: PictureSession;
}

const NO_PAYMENT = '图片里没有找到付款信息';
const CARD_BUSY = '卡片上还有未确认的草稿，请先确认或取消，再读图片';
const UNAVAILABLE = '这台电脑上不能识图';

export function createPictureHandlers(deps: PictureHandlerDeps): AreaHandlers<PictureCommand> {
  const reading = (): PictureReader => {
    const pictures = deps.pictures;
    if (!pictures) throw new CommandError('picture_unsupported', UNAVAILABLE);
    const support = pictures.support();
    if (!support.available) throw new CommandError('picture_unsupported', support.reason ?? UNAVAILABLE);
    return pictures;
  };

  const read = async (bytes: Uint8Array, name: string): Promise<VoiceSnapshot> => {
    const pictures = reading();
    const session = deps.pictureSession;
    if (!session) throw new CommandError('voice_unavailable', '记账会话尚未就绪，请稍后再试。');
    const format = badPicture(() => sniffImage(bytes));
    let recognized: OcrResult;
    try {
      recognized = await pictures.recognize(bytes);
    } catch (err) {
      if (err instanceof PictureError) throw new CommandError('bad_picture', err.message);
      pictures.log?.('reading a picture failed', err);
      throw new CommandError('picture_failed', '识图失败，请重试');
    }
    const now = pictures.now();
    const found = readPicture(recognized.lines, pictureContext(deps.ledger, now, pictures.receiptLines()));
    if (found.drafts.length === 0) throw new CommandError('no_payment', NO_PAYMENT);
    const id = randomUUID();
    const results = found.drafts.map((draft) => withRecorded(deps.ledger, resultOf(draft, id), now));
    const outcome = await session.submitPicture({
      results,
      notes: found.notes,
      name: name.trim() || '图片',
      picture: { id, bytes, format, text: recognized.lines.map((line) => line.text).join('\n') },
    });
    if (outcome === 'busy') throw new CommandError('card_busy', CARD_BUSY);
    if (outcome === 'empty') throw new CommandError('no_payment', NO_PAYMENT);
    if (outcome === 'gone') throw new CommandError('voice_unavailable', '记账会话已结束，请再试一次。');
    return session.snapshot();
  };

  return {
    pictureSupport: () => deps.pictures?.support() ?? { available: false, reason: UNAVAILABLE },
    pictureRead: (input) => read(input.bytes, input.name),
    pictureOpen: async () => {
      const pictures = reading();
      if (!pictures.choosePicturePath) throw new CommandError('dialog_unavailable', '无法打开文件对话框，请重启应用后再试。');
      const path = await pictures.choosePicturePath();
      if (!path) return null;
      let bytes: Uint8Array;
      try {
        const size = (await stat(path)).size;
        if (size > MAX_PICTURE_BYTES) throw new CommandError('bad_picture', PICTURE_MESSAGES.tooLarge(size));
        bytes = new Uint8Array(await readFile(path));
      } catch (err) {
        if (err instanceof CommandError) throw err;
        throw new CommandError('bad_picture', '无法读取这个文件');
      }
      return read(bytes, basename(path));
    },
    attachmentGet: (input) => deps.ledger.attachment(input.transactionId),
  };
}

function badPicture<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PictureError) throw new CommandError('bad_picture', err.message);
    throw err;
  }
}

/** The book's side of the reading: its categories and merchant memory, as a bill import uses them, and its open accounts. */
export function pictureContext(ledger: Ledger, now: ZonedNow, receiptLines: ReceiptLines): PictureContext {
  const categories = ledger.categoryCandidates();
  const categorize: Categorizer = { categories, memory: ledger.merchantCategories(), words: createWordCategorizer(categories) };
  const accounts = ledger
    .listAccounts()
    .filter((a) => !a.archived)
    .map((a) => a.name);
  return { now, categorize, accounts, receiptLines };
}

/** A picture's draft as the card holds a typed one, tied to its picture. */
export function resultOf(draft: PictureDraft, pictureId: string): ParseResult {
  return {
    amount: draft.amount,
    type: draft.type,
    category: draft.category,
    description: draft.description,
    date: draft.date,
    account: draft.account,
    // What the picture says is what was paid: read as surely as a bill's line.
    confidence: 1,
    source: 'local',
    picture: pictureId,
    ...(draft.time ? { time: draft.time } : {}),
    ...(draft.merchant ? { merchant: draft.merchant } : {}),
    ...(draft.flow ? { flow: draft.flow } : {}),
    ...(draft.counterparty ? { counterparty: draft.counterparty } : {}),
  };
}

/** The draft with the card's 「可能已记过」 line when the book holds a row like it. */
export function withRecorded(ledger: Ledger, result: ParseResult, now: ZonedNow): ParseResult {
  if (result.amount === null || result.date === null || result.flow) return result;
  const row = ledger.recordedLike({
    amountFen: yuanToFen(result.amount),
    type: result.type,
    date: result.date,
    time: result.time ?? null,
    merchant: result.merchant ?? null,
    offsetMinutes: now.offsetMinutes,
  });
  return row ? { ...result, maybeRecorded: recordedText(row) } : result;
}
