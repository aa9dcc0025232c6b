// Layer 1: the sure, instant intents of the confirmation dialogue. The utterance is read as a
// sequence of known phrases; anything left over is content for Layer 2 (correction / newInput).
// Priority (spec): item operations, then cancel > exit > continueRecording > confirm.
import type { ClassifyResult } from '@shared/domain';
import { COUNT_MEASURES } from './lexicon/amounts';
import { CORRECTION_CUES, HOLD_LATER, HOLD_NOT_YET, HOLD_UNHURRIED, PHRASES, type PhraseKind } from './lexicon/intents';
import { anyOf } from './lexicon/words';
import { isPunctuation, normalizeText } from './normalize';
import { findOrdinals, ordinalIndex } from './ordinals';

interface Phrase {
  word: string;
  kind: PhraseKind;
}

// 先别保存, 别急着确认, 等会儿再存: the card is kept for now, so these join the continue phrases
// (the card stays and the next words are heard), longer than the 别保存 / 保存 inside them.
const holds = [
  ...HOLD_NOT_YET.leads.flatMap((lead) => HOLD_NOT_YET.verbs.map((verb) => lead + verb)),
  ...HOLD_UNHURRIED.leads.flatMap((lead) => HOLD_UNHURRIED.verbs.map((verb) => lead + verb)),
  ...HOLD_LATER.leads.flatMap((lead) => HOLD_LATER.verbs.map((verb) => `${lead}再${verb}`)),
];
const ALL_PHRASES: [PhraseKind, readonly string[]][] = [...(Object.entries(PHRASES) as [PhraseKind, readonly string[]][]), ['continue', holds]];

const BY_FIRST = new Map<string, Phrase[]>();
for (const [kind, words] of ALL_PHRASES) {
  for (const word of words) {
    const bucket = BY_FIRST.get(word[0]!) ?? [];
    bucket.push({ word, kind });
    BY_FIRST.set(word[0]!, bucket);
  }
}
for (const bucket of BY_FIRST.values()) bucket.sort((a, b) => b.word.length - a.word.length);

export interface IntentReading {
  kinds: Set<PhraseKind>;
  /** 0-based indexes of the distinct ordinals spoken, in order; null for one that names no single item. */
  ordinals: { index: number | null; outOfRange: boolean }[];
  /** True when some text was not a known phrase (content for Layer 2). */
  leftover: boolean;
}

// 这两笔, 三笔, 这几个: how many items a whole-batch word covers; no decision of its own.
const SCOPE_COUNT = new RegExp(`^(?:这|那)?(?:几|[一两二三四五六七八九十]|\\d{1,2})${anyOf(COUNT_MEASURES)}`);

export function readIntent(text: string, batchSize: number): IntentReading {
  const kinds = new Set<PhraseKind>();
  const ordinals: IntentReading['ordinals'] = [];
  const ordinalAt = new Map(findOrdinals(text).map((o) => [o.start, o]));
  let leftover = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const ordinal = ordinalAt.get(i);
    if (ordinal) {
      const index = ordinalIndex(ordinal, batchSize);
      const outOfRange = index !== null && (index < 0 || index >= batchSize);
      if (!ordinals.some((o) => o.index === index)) ordinals.push({ index, outOfRange });
      i = ordinal.end;
      continue;
    }
    if (isPunctuation(ch)) {
      i++;
      continue;
    }
    const phrase = BY_FIRST.get(ch)?.find((p) => text.startsWith(p.word, i));
    const scope = phrase ? null : SCOPE_COUNT.exec(text.slice(i, i + 5));
    if (scope) {
      kinds.add('filler');
      i += scope[0].length;
      continue;
    }
    if (phrase) {
      kinds.add(phrase.kind);
      i += phrase.word.length;
      continue;
    }
    leftover = true;
    i++;
  }
  return { kinds, ordinals, leftover };
}

const A_NOT_A = /^[嗯啊哦那这,，、]*([\u4e00-\u9fff])不\1[\u4e00-\u9fff]?[吧啊呢呀吗?？。!！]*$/;
const QUESTION = /[吗?？]$|[吗?？][。！!…]*$/;

const CORRECTION_CUE = new RegExp(anyOf(CORRECTION_CUES));

export function classifyIntent(rawText: string, batchSize: number): ClassifyResult {
  const text = normalizeText(rawText);
  const { kinds, ordinals, leftover } = readIntent(text, batchSize);
  const layer2 = (): ClassifyResult => ({
    intent: CORRECTION_CUE.test(text) || kinds.has('objection') || ordinals.length > 0 ? 'correction' : 'newInput',
    index: null,
  });
  // 对不对 / 可不可以 on their own: the speaker asks; 不对不对 and 是不是错了 are no questions.
  if (A_NOT_A.test(text)) return { intent: 'filler', index: null };
  if (leftover) return layer2();

  if (ordinals.length > 0) {
    const { index, outOfRange } = ordinals[0]!;
    // 中间那笔 on a card of 4: which one only the speaker can say (Layer 2 asks).
    if (ordinals.length > 1 || kinds.has('objection') || index === null) return layer2();
    const item = (intent: 'confirmItem' | 'cancelItem'): ClassifyResult =>
      outOfRange ? { intent, index: Math.max(index, 0), outOfRange: true } : { intent, index };
    if (kinds.has('cancel')) return item('cancelItem');
    if (kinds.has('confirm')) return item('confirmItem');
    return layer2();
  }

  // 这笔删掉 on a card of several items names no item: Layer 2 must ask.
  if (kinds.has('single') && batchSize > 1 && (kinds.has('cancel') || kinds.has('confirm'))) return layer2();
  if (kinds.has('cancel')) return { intent: 'cancel', index: null };
  if (kinds.has('objection')) return { intent: 'correction', index: null };
  if (kinds.has('exit')) return { intent: 'exit', index: null };
  if (kinds.has('continue')) return { intent: 'continueRecording', index: null };
  // 确认吗？/ 对吗: asking back is no answer yet.
  if (QUESTION.test(text)) return { intent: 'filler', index: null };
  if (kinds.has('confirm') || kinds.has('declined')) return { intent: 'confirm', index: null };
  return { intent: 'filler', index: null };
}
