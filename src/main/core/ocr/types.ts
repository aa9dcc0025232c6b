// The shapes shared by the picture pipeline: the recognizer (engine.ts, in a worker) reads
// lines of text off a picture; the reader (read-picture.ts, pure) says what the picture is and
// which drafts it holds. Nothing here imports electron, the DOM or a native module.
import type { TransactionType } from '@shared/domain';

/** One line of text as the recognizer read it, in the picture it was given (after downscaling). */
export interface OcrLine {
  text: string;
  /** The recognizer's mean character confidence, 0–1. */
  confidence: number;
  /** The line's axis-aligned bounds, in pixels of the recognised (downscaled) picture. */
  box: { x: number; y: number; width: number; height: number };
}

export interface OcrResult {
  /** Top to bottom, then left to right. */
  lines: OcrLine[];
  /** The size of the picture the lines' boxes refer to. */
  width: number;
  height: number;
}

/** What a picture was read as. */
export type PictureKind = 'wechat' | 'alipay' | 'meituan' | 'eleme' | 'taobao' | 'jd' | 'unionpay' | 'bank-sms' | 'receipt' | 'taxi' | 'invoice';

/** One draft a picture holds, before the session puts it on the card. */
export interface PictureDraft {
  /** Yuan, as the card and `npm run nlp` use; null when the amount could not be read. */
  amount: number | null;
  type: TransactionType;
  category: string;
  /** Calendar day, YYYY-MM-DD: the picture's, else today's (the reader's `now`). */
  date: string;
  /** HH:MM:SS when the picture shows the time of day, else null. */
  time: string | null;
  description: string;
  /** The book's account the picture's 支付方式 names, else null (the default account). */
  account: string | null;
  /** The shop or person paid, as the picture writes it (memory and 「可能已记过」 key on it). */
  merchant: string | null;
  /** Present only for money coming back for a purchase (退款成功). */
  flow?: 'refund' | 'lend';
  /** A transfer to a person: who (offered as a transfer, or 借出 on the card). */
  counterparty?: string;
}

export interface PictureReading {
  kind: PictureKind | null;
  drafts: PictureDraft[];
  /**
   * Lines for the card, in Chinese: a receipt whose lines do not add up to what was paid
   * (「小票明细合计 ¥52.30，实付 ¥50.00，相差 ¥2.30」), lines grouped to fit the card.
   */
  notes: string[];
}
