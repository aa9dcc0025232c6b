// The amount field's calculator (记一笔): 「12+8.5」 becomes 20.50. A tiny recursive-descent
// parser over exact fractions — never eval or Function — so 0.1+0.2 is 0.30 and 10÷3 rounds
// once, at the end, to the fen (half away from zero, as yuanToFen does).
//
// Supported: digits (ASCII or full-width), one decimal point per number (. or ．, at most two
// decimals), + − × ÷ and their spellings + - * / ＋ － ＊ ／ − (U+2212), parentheses ( ) （ ）,
// a leading minus (which ends as the "negative" error), spaces anywhere. Nothing else.
import { MAX_AMOUNT_YUAN } from './money';

export type AmountResult = { ok: true; fen: number; yuan: number } | { ok: false; error: string };

export const CALC_ERRORS = {
  empty: '请输入金额',
  tooLong: '算式太长',
  badChar: '金额只能包含数字、小数点、+ − × ÷ 和括号',
  badNumber: '数字写法不对',
  decimals: '每个数最多两位小数（精确到分）',
  operator: '算式不完整：运算符前后都要有数字',
  parens: '括号不配对',
  divideByZero: '不能除以0',
  zero: '金额必须大于0',
  negative: '金额不能为负数',
  tooLarge: '金额超过上限（1亿元）',
} as const;

const MAX_TEXT = 100;

/** One exact rational number n/d, d > 0. */
type Fraction = { n: bigint; d: bigint };

class CalcError extends Error {}

const NORMALISE: Record<string, string> = {
  '＋': '+',
  '－': '-',
  '−': '-',
  '×': '*',
  '＊': '*',
  '÷': '/',
  '／': '/',
  '（': '(',
  '）': ')',
  '．': '.',
};

function normalise(text: string): string {
  return text
    .replace(/[\s\u3000]+/g, '')
    .replace(/[０-９]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0xff10 + 0x30))
    .replace(/[＋－−×＊÷／（）．]/g, (ch) => NORMALISE[ch]!);
}

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function reduce(n: bigint, d: bigint): Fraction {
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

function combine(a: Fraction, op: string, b: Fraction): Fraction {
  switch (op) {
    case '+':
      return reduce(a.n * b.d + b.n * a.d, a.d * b.d);
    case '-':
      return reduce(a.n * b.d - b.n * a.d, a.d * b.d);
    case '*':
      return reduce(a.n * b.n, a.d * b.d);
    default:
      if (b.n === 0n) throw new CalcError(CALC_ERRORS.divideByZero);
      return reduce(a.n * b.d, a.d * b.n);
  }
}

/** expr := term (('+'|'-') term)* ; term := factor (('*'|'/') factor)* ; factor := '-'? (number | '(' expr ')') */
class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): Fraction {
    const value = this.expr();
    if (this.at < this.text.length) throw new CalcError(this.text[this.at] === ')' ? CALC_ERRORS.parens : CALC_ERRORS.operator);
    return value;
  }

  private expr(): Fraction {
    let value = this.term();
    while (this.peek() === '+' || this.peek() === '-') {
      const op = this.text[this.at++]!;
      value = combine(value, op, this.term());
    }
    return value;
  }

  private term(): Fraction {
    let value = this.factor();
    while (this.peek() === '*' || this.peek() === '/') {
      const op = this.text[this.at++]!;
      value = combine(value, op, this.factor());
    }
    return value;
  }

  private factor(): Fraction {
    // A minus only opens the whole text or a parenthesis: 12+-3 is a doubled operator.
    const before = this.text[this.at - 1];
    if (this.peek() === '-' && (before === undefined || before === '(')) {
      this.at++;
      const inner = this.factor();
      return { n: -inner.n, d: inner.d };
    }
    if (this.peek() === '(') {
      this.at++;
      const inner = this.expr();
      if (this.peek() !== ')') throw new CalcError(this.at >= this.text.length ? CALC_ERRORS.parens : CALC_ERRORS.operator);
      this.at++;
      return inner;
    }
    return this.number();
  }

  private number(): Fraction {
    const match = /^\d*(?:\.\d*)?/.exec(this.text.slice(this.at))![0];
    // Nothing where a number belongs: 12++3, 12+, (), 5*)
    if (match === '') throw new CalcError(CALC_ERRORS.operator);
    this.at += match.length;
    if (match === '.' || this.peek() === '.') throw new CalcError(CALC_ERRORS.badNumber);
    const [whole = '', decimals = ''] = match.split('.');
    if (decimals.length > 2) throw new CalcError(CALC_ERRORS.decimals);
    return reduce(BigInt((whole || '0') + decimals.padEnd(2, '0')), 100n);
  }

  private peek(): string | undefined {
    return this.text[this.at];
  }
}

/** Rounds n/d to an integer, halves away from zero. */
function roundHalfAway(value: Fraction): bigint {
  const sign = value.n < 0n ? -1n : 1n;
  const n = value.n * sign;
  return sign * ((2n * n + value.d) / (2n * value.d));
}

/** Evaluates the amount field's text to whole fen, or says in Chinese what is wrong with it. */
export function evaluateAmount(text: string): AmountResult {
  const clean = normalise(text);
  if (clean === '') return { ok: false, error: CALC_ERRORS.empty };
  if (clean.length > MAX_TEXT) return { ok: false, error: CALC_ERRORS.tooLong };
  if (!/^[\d.+\-*/()]+$/.test(clean)) return { ok: false, error: CALC_ERRORS.badChar };
  let value: Fraction;
  try {
    value = new Parser(clean).parse();
  } catch (err) {
    if (err instanceof CalcError) return { ok: false, error: err.message };
    throw err;
  }
  // value is in yuan; the fen are value × 100, rounded once.
  const fen = roundHalfAway({ n: value.n * 100n, d: value.d });
  if (value.n < 0n) return { ok: false, error: CALC_ERRORS.negative };
  if (fen === 0n) return { ok: false, error: CALC_ERRORS.zero };
  if (fen > BigInt(MAX_AMOUNT_YUAN) * 100n) return { ok: false, error: CALC_ERRORS.tooLarge };
  return { ok: true, fen: Number(fen), yuan: Number(fen) / 100 };
}
