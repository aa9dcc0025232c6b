import { describe, expect, it } from 'vitest';
import type { CardBill } from '@shared/ipc/ledger';
import { dueLevel, dueText, parseCardTerms } from './card-terms';

const bill = (over: Partial<CardBill>): CardBill => ({
  from: '2026-10-06',
  to: '2026-11-05',
  closed: true,
  billFen: 1300_00,
  carriedFen: 0,
  spentFen: 1300_00,
  repaidFen: 0,
  leftFen: 800_00,
  unbilledFen: 0,
  dueDate: '2026-11-23',
  daysLeft: 13,
  ...over,
});

describe('a credit card’s terms as typed', () => {
  it('reads days and a 额度, empty as none', () => {
    expect(parseCardTerms({ statement: ' 5 ', due: '23', limit: '20,000.5' })).toEqual({ statementDay: 5, dueDay: 23, creditLimitYuan: 20000.5 });
    expect(parseCardTerms({ statement: '', due: '', limit: '' })).toEqual({ statementDay: null, dueDay: null, creditLimitYuan: null });
    expect(parseCardTerms({ statement: '1', due: '31', limit: '0' })).toEqual({ statementDay: 1, dueDay: 31, creditLimitYuan: 0 });
  });

  it.each([
    [{ statement: '0' }, '账单日和还款日应为每月1–31日'],
    [{ due: '32' }, '账单日和还款日应为每月1–31日'],
    [{ statement: '5.5' }, '账单日和还款日应为每月1–31日'],
    [{ due: '五' }, '账单日和还款日应为每月1–31日'],
    [{ limit: '-100' }, '额度不能为负'],
    [{ limit: '100.005' }, '额度最多两位小数（精确到分）'],
    [{ limit: '两万' }, '额度应为金额，如 20000'],
    [{ limit: '100000001' }, '额度超过上限（1亿元）'],
  ])('refuses %j: %s', (over, message) => {
    expect(() => parseCardTerms({ statement: '5', due: '23', limit: '', ...over })).toThrow(message);
  });
});

describe('the bill against its 还款日', () => {
  it.each([
    [bill({ daysLeft: 13 }), '还有 13 天还款', 'ok'],
    [bill({ daysLeft: 3 }), '还有 3 天还款', 'soon'],
    [bill({ daysLeft: 0 }), '今天还款', 'late'],
    [bill({ daysLeft: -2 }), '已逾期 2 天', 'late'],
    [bill({ daysLeft: -2, leftFen: 0 }), '已还清', 'ok'],
    [bill({ billFen: -50_00, leftFen: 0 }), '无需还款', 'ok'],
    [bill({ dueDate: null, daysLeft: null }), null, 'ok'],
  ])('%#: %s', (b, text, level) => {
    expect(dueText(b)).toBe(text);
    expect(dueLevel(b)).toBe(level);
  });
});
