import { describe, expect, it } from 'vitest';
import { detectDebtQuery } from './debt-query';

describe('spoken questions about what a person owes', () => {
  it.each([
    ['小李还欠我多少', '小李'],
    ['小李现在还欠我多少钱？', '小李'],
    ['我还欠我哥多少', '我哥'],
    ['我一共欠老王几块钱', '老王'],
    ['嗯，跟小李的账还有多少', '小李'],
    ['和同事之间还有多少没还', '同事'],
  ])('%s → %s', (text, person) => {
    expect(detectDebtQuery(text)).toEqual({ person });
  });

  it.each(['借给小李一千', '小李还了我五百', '这个月花了多少', '还欠多少', '信用卡还欠多少'])('%s is no such question', (text) => {
    expect(detectDebtQuery(text)).toBeNull();
  });
});
