// Chinese and Arabic numerals: 二百零八, 一百五 (elided 150), 两万三, 2.5万, 1万2, 3千, 1,234.5, 5k.
import { NUMERAL_WORDS } from './lexicon/amounts';
import { isAsciiDigit } from './normalize';
import { execFrom, startTable } from './starts';

const DIGITS = new Map<string, number>(
  Object.entries({
    零: 0,
    〇: 0,
    一: 1,
    二: 2,
    两: 2,
    俩: 2,
    三: 3,
    四: 4,
    五: 5,
    六: 6,
    七: 7,
    八: 8,
    九: 9,
    壹: 1,
    贰: 2,
    叁: 3,
    肆: 4,
    伍: 5,
    陆: 6,
    柒: 7,
    捌: 8,
    玖: 9,
  }),
);
const SMALL_UNITS = new Map<string, number>(Object.entries({ 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000, k: 1000 }));
const BIG_UNITS = new Map<string, number>(Object.entries({ 万: 10_000, w: 10_000, 亿: 100_000_000 }));
export function isChineseDigit(ch: string | undefined): boolean {
  return ch !== undefined && DIGITS.has(ch);
}

/** 九 → 9; null for anything but one Chinese digit. */
export function chineseDigitValue(ch: string | undefined): number | null {
  return ch === undefined ? null : (DIGITS.get(ch) ?? null);
}

type Token =
  | { kind: 'num'; value: number; integer: boolean }
  | { kind: 'zero' }
  | { kind: 'small'; unit: number }
  | { kind: 'big'; unit: number }
  | { kind: 'point' };

function tokenize(run: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < run.length) {
    const ch = run[i]!;
    if (isAsciiDigit(ch)) {
      let j = i;
      while (j < run.length && (isAsciiDigit(run[j]) || run[j] === ',' || (run[j] === '.' && isAsciiDigit(run[j + 1])))) j++;
      const literal = run.slice(i, j).replace(/,/g, '');
      tokens.push({ kind: 'num', value: Number(literal), integer: !literal.includes('.') });
      i = j;
    } else if (ch === '零' || ch === '〇') {
      // A run of Chinese digits only (二零二六) is read digit by digit later.
      tokens.push({ kind: 'zero' });
      i++;
    } else if (DIGITS.has(ch)) {
      tokens.push({ kind: 'num', value: DIGITS.get(ch)!, integer: true });
      i++;
    } else if (SMALL_UNITS.has(ch)) {
      tokens.push({ kind: 'small', unit: SMALL_UNITS.get(ch)! });
      i++;
    } else if (BIG_UNITS.has(ch)) {
      tokens.push({ kind: 'big', unit: BIG_UNITS.get(ch)! });
      i++;
    } else if (ch === '点') {
      tokens.push({ kind: 'point' });
      i++;
    } else return null;
  }
  return tokens;
}

/**
 * Value of one numeral run, or null when it is not a well-formed number.
 * Elision (一百五 = 150, 两万三 = 23000) applies to a trailing digit after a unit ≥ 百
 * unless a 零 came between (一百零五 = 105).
 */
export function parseNumeral(run: string): number | null {
  // Arabic digits alone read as written: no tokens, and no hash of the run for the memo.
  if (run.length <= 15) {
    let digits = 0;
    let i = 0;
    for (; i < run.length; i++) {
      const code = run.charCodeAt(i);
      if (code < 0x30 || code > 0x39) break;
      digits = digits * 10 + (code - 0x30);
    }
    if (i === run.length && i > 0) return digits;
  }
  let value = NUMERALS_READ.get(run);
  if (value === undefined) {
    // A pure function of short strings that recur (二十, 三十五): read each once. The cap keeps
    // a stream of odd input from growing the memo without end.
    if (NUMERALS_READ.size >= MEMO_CAP) NUMERALS_READ.clear();
    value = readNumeral(run);
    NUMERALS_READ.set(run, value);
  }
  return value;
}

const NUMERALS_READ = new Map<string, number | null>();
const MEMO_CAP = 4096;

function readNumeral(run: string): number | null {
  if (run.length === 0) return null;
  const tokens = tokenize(run);
  if (!tokens || tokens.length === 0) return null;

  // Digit strings: 二零二六, 一二 (years, phone-style reading).
  if (tokens.every((t) => t.kind === 'zero' || (t.kind === 'num' && t.integer && t.value < 10)) && tokens.length > 1) {
    if (tokens.some((t) => t.kind === 'num' && t.value >= 10)) return null;
    let s = '';
    for (const t of tokens) s += t.kind === 'zero' ? '0' : String((t as { value: number }).value);
    return Number(s);
  }

  let total = 0;
  let section = 0;
  let current: number | null = null;
  let currentIsSimpleDigit = false;
  let lastUnit = 1;
  let zeroSeen = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    switch (t.kind) {
      case 'num':
        if (current !== null) return null; // 五六十: ranges are not amounts
        current = t.value;
        currentIsSimpleDigit = t.integer && t.value < 10;
        break;
      case 'zero':
        if (current !== null) return null;
        zeroSeen = true;
        break;
      case 'small':
        if (current === null) {
          // Only 十 may stand without a digit: 十五 = 15, 一百十 = 110; 百/千 need one, 十十 is nonsense.
          if (t.unit !== 10 || (section !== 0 && lastUnit <= 10)) return null;
          current = 1;
        }
        if (lastUnit < t.unit && section > 0) return null; // 五十百
        section += current * t.unit;
        current = null;
        lastUnit = t.unit;
        zeroSeen = false;
        break;
      case 'big': {
        const value = section + (current ?? 0);
        if (value === 0) return null;
        total = (total + value) * t.unit;
        section = 0;
        current = null;
        lastUnit = t.unit;
        zeroSeen = false;
        break;
      }
      case 'point': {
        // 三点五 = 3.5: the digits after 点 are read one by one.
        let frac = '';
        let j = k + 1;
        while (j < tokens.length) {
          const d = tokens[j]!;
          if (d.kind === 'zero') frac += '0';
          else if (d.kind === 'num' && d.integer && d.value < 10) frac += String(d.value);
          else break;
          j++;
        }
        if (frac === '') return null;
        current = (current ?? 0) + Number(`0.${frac}`);
        currentIsSimpleDigit = false;
        k = j - 1;
        break;
      }
    }
  }
  if (current !== null) {
    if (!zeroSeen && lastUnit >= 100 && currentIsSimpleDigit) section += current * (lastUnit / 10);
    else section += current;
  }
  const value = total + section;
  return Number.isFinite(value) ? Number(value.toFixed(6)) : null;
}

/** One number found in text. `chinese` when it is written with any Chinese numeral character. */
export interface NumberToken {
  start: number;
  end: number;
  value: number;
  chinese: boolean;
  /** The characters of the run, e.g. "二十五" or "2.5万". */
  raw: string;
}

const CHINESE_DIGITS = '零〇一二两俩三四五六七八九壹贰叁肆伍陆柒捌玖';
const DIGIT_CLASS = `0-9${CHINESE_DIGITS}`;
// A run starts at a digit or 十 (never at 百/千/万: 百货, 万一) and may hold units, a decimal
// point between digits, a thousands comma before exactly three digits, 点 before a digit, and
// k/w right after Arabic digits (5k, 1w).
const NUMERAL_RUN = new RegExp(
  `[${DIGIT_CLASS}十拾](?:[${DIGIT_CLASS}十拾百佰千仟万亿]|(?<=\\d)\\.(?=\\d)|(?<=\\d),(?=\\d{3}(?!\\d))|点(?=[${DIGIT_CLASS}])|(?<=\\d)[kw](?![a-z]))*`,
  'y',
);
const RUN_STARTS = startTable(`0123456789${CHINESE_DIGITS}十拾`);

/** Finds every numeral run in normalized text. */
export function scanNumbers(text: string): NumberToken[] {
  const found: NumberToken[] = [];
  NUMERAL_RUN.lastIndex = 0;
  for (let m = execFrom(NUMERAL_RUN, RUN_STARTS, text); m !== null; m = execFrom(NUMERAL_RUN, RUN_STARTS, text)) {
    const raw = givesDigitAway(m[0], text, m.index + m[0].length);
    const value = parseNumeral(raw);
    if (value !== null) found.push({ start: m.index, end: m.index + raw.length, value, chinese: /[^\d.,kw]/.test(raw), raw });
    else pushScriptRuns(raw, m.index, found);
  }
  return found;
}

/** 二十一共: the last digit starts a word (一共), so the number is 二十. */
const WORD_STARTS = startTable(NUMERAL_WORDS.map((w) => w[0]!));

function givesDigitAway(raw: string, text: string, end: number): string {
  if (raw.length < 2 || WORD_STARTS[text.charCodeAt(end - 1)] !== 1) return raw;
  for (const w of NUMERAL_WORDS) if (text.startsWith(w, end - 1)) return raw.slice(0, -1);
  return raw;
}

// 买一送一30: a Chinese digit glued to an Arabic number is two numbers, not one bad one.
const SCRIPT_RUN = /[0-9][0-9.,kw]*|[^0-9.,kw]+/g;

function pushScriptRuns(raw: string, offset: number, found: NumberToken[]): void {
  if (!/[0-9]/.test(raw) || !/[^\d.,kw]/.test(raw)) return;
  for (const part of raw.match(SCRIPT_RUN) ?? []) {
    const at = offset + raw.indexOf(part);
    const value = parseNumeral(part);
    if (value !== null) found.push({ start: at, end: at + part.length, value, chinese: /[^\d.,kw]/.test(part), raw: part });
  }
}
