// 「退的是买衣服那笔」「不是鞋子，是衣服那笔」「第二笔应该是上周打车那笔」: on a card holding a
// refund, the words that say which earlier expense it returns. Only the words are read here;
// the dialogue finds the expense among the refund's candidates.
import { findOrdinals, type OrdinalMention } from './ordinals';

export interface RelinkWords {
  /** What names the expense (买衣服), searched like a refund's own description. */
  what: string;
  /** The card item named by 第N笔 (or 中间那笔) at the start, when one is; ordinalIndex places it. */
  ordinal?: OrdinalMention;
}

// The LAST 「…是X那笔」 of the sentence: in 「不是鞋子那笔，是衣服那笔」 the first one is denied.
const RELINK = /(?:退的?是|应该是|其实是|换成|改成|关联到?|是)([^，,。；;！!？?\s]{1,16}?)的?那一?笔(?:才对|吧|啊|呀|的)?$/;
const TRAILING = /[，,。；;！!？?\s]+$/;

export function readRelink(text: string): RelinkWords | null {
  const plain = text.replace(TRAILING, '');
  const m = RELINK.exec(plain);
  if (!m) return null;
  const what = m[1]!.trim();
  // 「是第二笔那笔」 or a bare 「是那笔」 names no expense.
  if (!what || findOrdinals(what).length > 0) return null;
  const [first] = findOrdinals(plain.slice(0, m.index));
  return first && first.start === 0 ? { what, ordinal: first } : { what };
}
