import { describe, expect, it } from 'vitest';
import { ParseTransactionResponseSchema } from './gateway';

const item = { amount: 1000, type: 'TRANSFER', category: '转账', description: '借给小李', date: null, account: null, confidence: 0.9 };
const read = (fields: Record<string, unknown>) =>
  ParseTransactionResponseSchema.parse({ transactions: [{ ...item, ...fields }], model: 'm' }).transactions[0]!;

describe('a parsed transaction from the gateway', () => {
  it('keeps the money-flow fields an answer sends', () => {
    expect(read({ flow: 'lend', counterparty: ' 小李 ', reimbursable: true })).toMatchObject({
      flow: 'lend',
      counterparty: '小李',
      reimbursable: true,
    });
  });

  it('reads an answer without them, and drops values it does not know rather than the answer', () => {
    expect(read({})).not.toHaveProperty('flow');
    const odd = read({ flow: 'steal', counterparty: '', reimbursable: 'yes' });
    expect(odd).toMatchObject({ amount: 1000, type: 'TRANSFER' });
    expect(odd.flow).toBeUndefined();
    expect(odd.counterparty).toBeUndefined();
    expect(odd.reimbursable).toBeUndefined();
  });
});
