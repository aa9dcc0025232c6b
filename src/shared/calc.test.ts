import { describe, expect, it } from 'vitest';
import { CALC_ERRORS, evaluateAmount } from './calc';

describe('evaluateAmount', () => {
  it.each([
    ['12', 1200],
    ['12+8.5', 2050],
    ['0.1+0.2', 30],
    ['19.99', 1999],
    ['100-0.01', 9999],
    ['3×2.5', 750],
    ['3*2.5', 750],
    ['10÷4', 250],
    ['10/4', 250],
    // 3.333… and 6.666… round once, at the end, half away from zero.
    ['10/3', 333],
    ['20/3', 667],
    ['0.05/2', 3],
    ['1+2×3', 700],
    ['(1+2)×3', 900],
    ['（1＋2）×3', 900],
    ['１２＋３', 1500],
    ['12－2', 1000],
    ['12−2', 1000],
    ['6／2', 300],
    ['2＊3', 600],
    [' 12 + 3 ', 1500],
    ['.5', 50],
    ['5.', 500],
    ['-5+10', 500],
    ['100000000', 10_000_000_000],
    ['50000000×2', 10_000_000_000],
  ])('%s → %i fen', (text, fen) => {
    expect(evaluateAmount(text)).toEqual({ ok: true, fen, yuan: fen / 100 });
  });

  it.each([
    ['', CALC_ERRORS.empty],
    ['   ', CALC_ERRORS.empty],
    ['0', CALC_ERRORS.zero],
    ['0.00', CALC_ERRORS.zero],
    ['5-5', CALC_ERRORS.zero],
    ['0.01/3', CALC_ERRORS.zero],
    ['-5', CALC_ERRORS.negative],
    ['3-5', CALC_ERRORS.negative],
    ['(-2)×3', CALC_ERRORS.negative],
    ['1000000000', CALC_ERRORS.tooLarge],
    ['100000000.01', CALC_ERRORS.tooLarge],
    ['99999999×2', CALC_ERRORS.tooLarge],
    ['1e9', CALC_ERRORS.badChar],
    ['12元', CALC_ERRORS.badChar],
    ['abc', CALC_ERRORS.badChar],
    ['12%', CALC_ERRORS.badChar],
    ['12++3', CALC_ERRORS.operator],
    ['12+-3', CALC_ERRORS.operator],
    ['12+', CALC_ERRORS.operator],
    ['×3', CALC_ERRORS.operator],
    ['()', CALC_ERRORS.operator],
    ['2(3)', CALC_ERRORS.operator],
    ['(1+2', CALC_ERRORS.parens],
    ['1+2)', CALC_ERRORS.parens],
    ['1.2.3', CALC_ERRORS.badNumber],
    ['.', CALC_ERRORS.badNumber],
    ['10/0', CALC_ERRORS.divideByZero],
    ['10/(5-5)', CALC_ERRORS.divideByZero],
    ['1.234', CALC_ERRORS.decimals],
    ['1+0.001', CALC_ERRORS.decimals],
    ['1+'.repeat(60) + '1', CALC_ERRORS.tooLong],
  ])('%j → %s', (text, error) => {
    expect(evaluateAmount(text)).toEqual({ ok: false, error });
  });

  it('never throws and never calls eval on hostile text', () => {
    for (const text of ['constructor', '__proto__', 'alert(1)', '1;2', '((((((', '))))', '+', '-', '--1', '1//2', '\u0000']) {
      expect(evaluateAmount(text).ok, text).toBe(false);
    }
  });
});
