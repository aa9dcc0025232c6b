// The optional keys of a parsed transaction (issues 26 and 43): what the sentence says the money
// is — a loan and with whom, a refund, a reimbursement, 待报销, tags. A model's reply keeps them
// when usable, drops what is not, and a flow decides the type as the local rules have it.
import { describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { normalizeParseReply } from './normalize';
import { commonValues, loadPrompts, renderPrompt } from './prompts';

const TODAY = '2026-02-17';
const one = (fields: Record<string, unknown>) =>
  normalizeParseReply({ transactions: [{ amount: 100, category: '其他', description: 'x', ...fields }] }, TODAY).transactions[0]!;

describe('a parse reply with what the money is', () => {
  it('keeps a loan with its person, and makes it a TRANSFER whatever type the model wrote', () => {
    expect(one({ type: 'EXPENSE', flow: 'lend', counterparty: ' 室友 ' })).toMatchObject({ type: 'TRANSFER', flow: 'lend', counterparty: '室友' });
    expect(one({ flow: 'REPAY', counterparty: '阿峰' })).toMatchObject({ type: 'TRANSFER', flow: 'repay', counterparty: '阿峰' });
    expect(one({ type: 'INCOME', flow: 'collect', counterparty: '老郑' })).toMatchObject({ type: 'TRANSFER', flow: 'collect' });
  });

  it('reads money coming back as income, as the local rules do; 待报销 only on an expense', () => {
    expect(one({ type: 'EXPENSE', flow: 'refund' })).toMatchObject({ type: 'INCOME', flow: 'refund' });
    expect(one({ flow: 'reimbursement' })).toMatchObject({ type: 'INCOME', flow: 'reimbursement' });
    expect(one({ type: 'EXPENSE', reimbursable: true })).toMatchObject({ type: 'EXPENSE', reimbursable: true });
    expect(one({ type: 'INCOME', reimbursable: true })).not.toHaveProperty('reimbursable');
    expect(one({ type: 'EXPENSE', reimbursable: 'yes' })).not.toHaveProperty('reimbursable');
  });

  it('keeps tags a row can carry: trimmed, # dropped, once each; none → no key', () => {
    expect(one({ tags: [' #育儿 ', '育儿', '', 7, '家'] }).tags).toEqual(['育儿', '家']);
    expect(one({ tags: ['很'.repeat(21), 'a;b'] })).not.toHaveProperty('tags');
    expect(one({ tags: '育儿' })).not.toHaveProperty('tags');
  });

  it('drops an unknown flow and a person without a loan, and adds no key the model did not send', () => {
    const plain = one({ type: 'INCOME', flow: 'pension', counterparty: '单位' });
    expect(plain).toMatchObject({ type: 'INCOME' });
    for (const key of ['flow', 'counterparty', 'reimbursable', 'tags']) expect(plain).not.toHaveProperty(key);
    expect(one({ flow: 'refund', counterparty: '商家' })).not.toHaveProperty('counterparty');
  });
});

describe('the prompts state the classes of issue 43, in the output they ask for', () => {
  const values = { ...commonValues(toZonedNow('2026-02-17T12:00:00+08:00'), null), maxItems: '10' };
  const parse = renderPrompt(loadPrompts().parse, values);

  it('every example answer of the parse prompt is a reply the gateway reads whole, optional keys included', () => {
    const answers = parse.match(/^\{"transactions":\[$[\s\S]*?\]\}$/gm) ?? [];
    expect(answers.length).toBeGreaterThanOrEqual(5);
    for (const answer of answers) {
      const raw = JSON.parse(answer) as { transactions: Record<string, unknown>[] };
      const read = normalizeParseReply(raw, TODAY).transactions;
      expect(read).toHaveLength(raw.transactions.length);
      read.forEach((tx, i) => expect(tx).toEqual(raw.transactions[i]));
    }
    expect(answers.join('')).toMatch(/"flow":"repay","counterparty":"阿峰"[\s\S]*"flow":"refund"[\s\S]*"tags":\["育儿"\][\s\S]*"reimbursable":true/);
  });

  it('the correction prompt names the middle item, more to come and a card kept unsaved', () => {
    const correct = renderPrompt(loadPrompts().correct, { ...values, batchContext: '0: 支出 18元, 餐饮, 豆浆油条' });
    for (const said of ['中间那笔', '倒数第二笔', '等等还有一笔没说', '慢着我再加一个', '先别保存', '哦不是', '支付包', '威信']) {
      expect(correct).toContain(said);
    }
  });
});
