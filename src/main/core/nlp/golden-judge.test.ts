import { describe, expect, it } from 'vitest';
import { judge, type GoldenCase } from './golden-judge';

const parseCase: GoldenCase = { id: 'p', op: 'parse', text: '午饭35', expect: { amount: 35, category: ['餐饮', '其他'] } };
const tx = (fields: Record<string, unknown>) => ({
  transactions: [{ amount: 35, type: 'EXPENSE', category: '餐饮', date: null, description: '午饭', account: null, ...fields }],
  truncated: false,
});

describe('golden judge', () => {
  it('passes a matching parse and accepts any listed value', () => {
    expect(judge(parseCase, tx({}))).toBeNull();
    expect(judge(parseCase, tx({ category: '其他' }))).toBeNull();
  });

  it('fails a wrong value, a missing transaction and an error', () => {
    expect(judge(parseCase, tx({ amount: 36 }))).toContain('amount');
    expect(judge(parseCase, { transactions: [], truncated: false })).toContain('no transaction');
    expect(judge(parseCase, { error: 'x' })).toContain('error');
  });

  it('lets "amount": null pass when there is no transaction', () => {
    const c: GoldenCase = { id: 'n', op: 'parse', text: '', expect: { amount: null } };
    expect(judge(c, { transactions: [], truncated: false })).toBeNull();
  });

  it('compares "items" in order and counts them', () => {
    const c: GoldenCase = { id: 'm', op: 'parse', text: '', expect: { items: [{ amount: 35 }, { amount: 20, category: ['交通', '其他'] }] } };
    const two = (second: Record<string, unknown>) => ({
      transactions: [tx({}).transactions[0]!, { ...tx({}).transactions[0]!, ...second }],
      truncated: false,
    });
    expect(judge(c, two({ amount: 20, category: '其他' }))).toBeNull();
    expect(judge(c, two({ amount: 21, category: '交通' }))).toContain('item 1 amount');
    expect(judge(c, tx({}))).toContain('count');
    const reversed = two({ amount: 20 });
    reversed.transactions.reverse();
    expect(judge(c, reversed)).toContain('item 0 amount');
  });

  it('reads an optional field the answer leaves out as null', () => {
    const none: GoldenCase = { id: 'f', op: 'parse', text: '', expect: { items: [{ flow: null, reimbursable: null }] } };
    expect(judge(none, tx({}))).toBeNull();
    expect(judge(none, tx({ flow: 'lend' }))).toContain('item 0 flow');
    const lend: GoldenCase = { id: 'l', op: 'parse', text: '', expect: { flow: 'lend', counterparty: ['我哥', '哥'] } };
    expect(judge(lend, tx({ flow: 'lend', counterparty: '哥' }))).toBeNull();
    expect(judge(lend, tx({}))).toContain('flow');
  });

  it('compares tags as a set and a recurrence key by key, a null key meaning it is left out', () => {
    const tags: GoldenCase = { id: 't', op: 'parse', text: '', expect: { tags: ['出差', '报销'] } };
    expect(judge(tags, tx({ tags: ['报销', '出差'] }))).toBeNull();
    expect(judge(tags, tx({ tags: ['出差'] }))).toContain('tags');
    expect(judge(tags, tx({}))).toContain('tags');
    const rule: GoldenCase = { id: 'r', op: 'parse', text: '', expect: { recurrence: { every: 'month', day: null } } };
    expect(judge(rule, tx({ recurrence: { every: 'month' } }))).toBeNull();
    expect(judge(rule, tx({ recurrence: { every: 'month', day: 5 } }))).toContain('recurrence');
    expect(judge(rule, tx({ recurrence: { every: 'week' } }))).toContain('recurrence');
    expect(judge(rule, tx({}))).toContain('recurrence');
    const none: GoldenCase = { id: 'x', op: 'parse', text: '', expect: { recurrence: null, tags: null } };
    expect(judge(none, tx({}))).toBeNull();
    expect(judge(none, tx({ tags: ['出差'] }))).toContain('tags');
  });

  it('checks only how many transactions there are for "count" alone', () => {
    const c: GoldenCase = { id: 'k', op: 'parse', text: '', expect: { count: 1 } };
    expect(judge(c, tx({ amount: 99, category: null }))).toBeNull();
    expect(judge(c, { transactions: [], truncated: false })).toContain('count');
  });

  it('treats correction and newInput as the same Layer-2 answer and checks the index', () => {
    const c: GoldenCase = { id: 'c', op: 'classify', text: 'x', expect: { intent: 'correction' } };
    expect(judge(c, { intent: 'newInput', index: null })).toBeNull();
    expect(judge(c, { intent: 'confirm', index: null })).toContain('intent');
    const item: GoldenCase = { id: 'i', op: 'classify', text: 'x', expect: { intent: 'confirmItem', index: 1 } };
    expect(judge(item, { intent: 'confirmItem', index: 2 })).toContain('index');
  });

  it('fails a correction that touches an index that is not expected or changes a field wrongly', () => {
    const c: GoldenCase = {
      id: 'k',
      op: 'correct',
      text: 'x',
      expect: { intent: 'correction', corrections: [{ index: 0, updatedFields: { amount: 50 } }] },
    };
    expect(judge(c, { intent: 'correction', corrections: [{ index: 0, updatedFields: { amount: 50 } }] })).toBeNull();
    expect(judge(c, { intent: 'correction', corrections: [{ index: 0, updatedFields: { amount: 51 } }] })).toContain('amount');
    expect(
      judge(c, {
        intent: 'correction',
        corrections: [
          { index: 0, updatedFields: { amount: 50 } },
          { index: 1, updatedFields: { amount: 5 } },
        ],
      }),
    ).toContain('unexpected');
  });

  it('judges a question: null for words that ask no such question, else every expected key', () => {
    const none: GoldenCase = { id: 'q0', op: 'query', text: '预算500', expect: { budget: null, query: null } };
    const asked: GoldenCase = {
      id: 'q1',
      op: 'query',
      text: '餐饮预算还剩多少',
      expect: { budget: { month: '2026-02', category: '餐饮' }, query: null },
    };
    const budget = { month: '2026-02', category: '餐饮', periodLabel: '本月' };
    const spending = { from: '2026-02-01', to: '2026-02-17', type: 'EXPENSE' as const, category: null, periodLabel: '这个月' };
    expect(judge(none, { query: null, budget: null })).toBeNull();
    expect(judge(none, { query: null, budget })).toContain('expected no budget');
    expect(judge(asked, { query: null, budget })).toBeNull();
    expect(judge(asked, { query: null, budget: { ...budget, category: null } })).toContain('budget category');
    expect(judge(asked, { query: spending, budget: null })).toContain('no budget');
    expect(judge(asked, { query: spending, budget })).toContain('expected no query');
    expect(judge(asked, { intent: 'confirm', index: null })).toContain('not a query answer');
  });
});
