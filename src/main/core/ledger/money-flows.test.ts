import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toZonedNow, type ZonedNow } from '@shared/time';
import { LedgerHistory, openLedger, type Ledger } from './index';
import { LedgerValidationError } from './errors';
import { nextDueDate } from './money-flows';
import { item, NOW } from '../../../../test/support/ledger-fixtures';

let ledger: Ledger;
let now: ZonedNow;

beforeEach(() => {
  now = NOW;
  ledger = openLedger({ path: ':memory:', now: () => now });
});
afterEach(() => ledger.close());

const balanceOf = (name: string) => ledger.accountBalances().accounts.find((a) => a.name === name)!.balanceFen;
const feb = () => ledger.monthSummary('2026-02');
const category = (name: string) => feb().byCategory.find((c) => c.category === name && c.type === 'EXPENSE');

describe('debts with people', () => {
  it('lending, collecting, borrowing and repaying move money between an account and a person, never spending or income', () => {
    ledger.saveBatch([
      item({ amount: 1000, type: 'TRANSFER', category: null, flow: 'lend', counterparty: '小李' }),
      item({ amount: 500, type: 'TRANSFER', category: null, flow: 'collect', counterparty: '小李' }),
      item({ amount: 3000, type: 'TRANSFER', category: null, flow: 'borrow', counterparty: '我哥' }),
      item({ amount: 1000, type: 'TRANSFER', category: null, flow: 'repay', counterparty: '我哥' }),
    ]);
    expect(ledger.people()).toEqual({
      people: [
        { id: 2, name: '我哥', balanceFen: -2000_00, count: 2, archived: false },
        { id: 1, name: '小李', balanceFen: 500_00, count: 2, archived: false },
      ],
      owedToMeFen: 500_00,
      iOweFen: 2000_00,
    });
    expect(balanceOf('钱包')).toBe(-1000_00 + 500_00 + 3000_00 - 1000_00);
    expect(feb()).toMatchObject({ expenseFen: 0, incomeFen: 0 });
    const rows = ledger.list({ person: '小李' }).rows;
    expect(rows.map((r) => [r.type, r.flow, r.person, r.amountFen])).toEqual([
      ['TRANSFER', 'collect', '小李', 500_00],
      ['TRANSFER', 'lend', '小李', 1000_00],
    ]);
    expect(ledger.findPerson('哥')?.name).toBe('我哥');
  });

  it('refuses a debt that names nobody, and the batch with it', () => {
    expect(() => ledger.saveBatch([item(), item({ amount: 100, type: 'TRANSFER', flow: 'lend' })])).toThrow(LedgerValidationError);
    expect(ledger.count()).toBe(0);
    expect(ledger.people().people).toEqual([]);
  });

  it('writes off at most what a person owes, as spending that moves no account', () => {
    ledger.saveBatch([item({ amount: 800, type: 'TRANSFER', flow: 'lend', counterparty: '老王' })]);
    const person = ledger.findPerson('老王')!;
    expect(() => ledger.writeOff(person.id, 900_00)).toThrow('老王只欠 800.00 元');
    const row = ledger.writeOff(person.id, 300_00);
    expect(row).toMatchObject({ type: 'EXPENSE', flow: 'writeoff', person: '老王', category: '其他' });
    expect(ledger.findPerson('老王')!.balanceFen).toBe(500_00);
    expect(balanceOf('钱包')).toBe(-800_00);
    expect(ledger.monthSummary(row.date.slice(0, 7)).expenseFen).toBe(300_00);
  });

  it('keeps a debt a transfer: its type cannot be edited', () => {
    const [lend] = ledger.saveBatch([item({ amount: 100, type: 'TRANSFER', flow: 'lend', counterparty: '小李' })]);
    expect(() => ledger.updateTransaction(lend!.id, { type: 'EXPENSE' })).toThrow('不能改类型');
    expect(ledger.updateTransaction(lend!.id, { amountFen: 200_00 })).toMatchObject({ amountFen: 200_00, person: '小李', counterparty: '小李' });
    expect(ledger.findPerson('小李')!.balanceFen).toBe(200_00);
  });
});

describe('refunds', () => {
  it('nets a linked refund from its expense in statistics and budgets, and puts the money back', () => {
    const [shoes] = ledger.saveBatch([item({ amount: 500, category: '购物', description: '淘宝买鞋' })]);
    ledger.setBudgets('2026-02', [{ categoryId: ledger.listCategories().find((c) => c.name === '购物')!.id, amountFen: 1000_00 }]);
    const [refund] = ledger.saveBatch([item({ amount: 300, type: 'INCOME', category: null, flow: 'refund', refundOf: shoes!.id })]);
    expect(refund).toMatchObject({ type: 'EXPENSE', flow: 'refund', refundOf: shoes!.id, category: '购物' });
    expect(category('购物')).toMatchObject({ totalFen: 200_00, count: 2 });
    expect(feb()).toMatchObject({ expenseFen: 200_00, incomeFen: 0 });
    expect(ledger.budgetStatus('2026-02').lines[0]!.spentFen).toBe(200_00);
    expect(balanceOf('钱包')).toBe(-200_00);
    expect(ledger.days({}).map((d) => [d.expenseFen, d.incomeFen])).toEqual([[200_00, 0]]);
    expect(ledger.totals({ from: '2026-02-01', to: '2026-02-28', type: 'EXPENSE' })).toEqual({ totalFen: 200_00, count: 2 });
  });

  it('refuses a refund larger than what is left of its expense, alone or with another of the same card', () => {
    const [meal] = ledger.saveBatch([item({ amount: 100 })]);
    const refund = (amount: number) => item({ amount, type: 'INCOME', flow: 'refund', refundOf: meal!.id });
    expect(() => ledger.saveBatch([refund(120)])).toThrow('退款 120 元超过了原支出可退的 100 元');
    expect(() => ledger.saveBatch([refund(60), refund(50)])).toThrow('超过了原支出可退的 40 元');
    expect(ledger.count()).toBe(1);
    const [first] = ledger.saveBatch([refund(60)]);
    expect(() => ledger.updateTransaction(meal!.id, { amountFen: 50_00 })).toThrow('金额不能更小');
    expect(() => ledger.updateTransaction(first!.id, { amountFen: 120_00 })).toThrow('可退的 100.00 元');
    expect(() => ledger.updateTransaction(meal!.id, { type: 'INCOME' })).toThrow('这笔支出有退款');
  });

  it('keeps an unlinked refund as a refund of its category, never income', () => {
    ledger.saveBatch([item({ amount: 80, category: '购物' }), item({ amount: 200, type: 'INCOME', category: '购物', flow: 'refund' })]);
    expect(feb()).toMatchObject({ expenseFen: -120_00, incomeFen: 0 });
    expect(category('购物')).toMatchObject({ totalFen: -120_00 });
  });

  it('reads a refund whose expense was deleted as unlinked, still netted in its category', () => {
    const [shoes] = ledger.saveBatch([item({ amount: 500, category: '购物' })]);
    const [refund] = ledger.saveBatch([item({ amount: 100, type: 'INCOME', flow: 'refund', refundOf: shoes!.id })]);
    ledger.deleteTransaction(shoes!.id);
    expect(ledger.getTransaction(refund!.id)).toMatchObject({ refundOf: null, category: '购物' });
    expect(category('购物')).toMatchObject({ totalFen: -100_00 });
  });

  it('offers recent expenses that share words with what was said first, then the same category, then the newest', () => {
    now = toZonedNow('2026-02-20T10:00:00+08:00');
    const [shoes, , coat] = ledger.saveBatch([
      item({ amount: 300, category: '购物', description: '淘宝买鞋', date: '2026-02-01' }),
      item({ amount: 40, category: '餐饮', description: '午饭', date: '2026-02-10' }),
      item({ amount: 600, category: '购物', description: '大衣', date: '2026-02-05' }),
      item({ amount: 50, category: '购物', description: '袜子', date: '2025-01-05' }),
    ]);
    expect(ledger.refundCandidates({ text: '淘宝买鞋那笔退了', amountFen: 100_00 }).map((c) => c.id)[0]).toBe(shoes!.id);
    expect(ledger.refundCandidates({ category: '购物', amountFen: 100_00 }).map((c) => c.description)).toEqual(['大衣', '淘宝买鞋']);
    ledger.saveBatch([item({ amount: 550, type: 'INCOME', flow: 'refund', refundOf: coat!.id })]);
    expect(ledger.refundCandidates({ category: '购物', amountFen: 100_00 }).map((c) => c.description)).toEqual(['淘宝买鞋']);
  });
});

describe('reimbursements (待报销)', () => {
  it('leaves 待报销 out of net spending unless asked for, and settles it oldest first without counting income', () => {
    const [taxi, gift, hotel] = ledger.saveBatch([
      item({ amount: 80, category: '交通', reimbursable: true, date: '2026-02-01' }),
      item({ amount: 500, category: '人情往来', reimbursable: true, date: '2026-02-02' }),
      item({ amount: 400, category: '住房', reimbursable: true, date: '2026-02-03' }),
      item({ amount: 30, category: '餐饮', date: '2026-02-03' }),
    ]);
    expect(taxi).toMatchObject({ reimbursable: true });
    expect(feb().expenseFen).toBe(30_00);
    expect(ledger.monthSummary('2026-02', { includeReimbursed: true }).expenseFen).toBe(1010_00);
    expect(ledger.pendingReimbursements().totalFen).toBe(980_00);
    // 800 pays 80 and 500 in full and 220 of the 400.
    expect(ledger.proposeSettlement(800_00)).toEqual({
      ids: [taxi!.id, gift!.id, hotel!.id],
      settledFen: 800_00,
      leftOverFen: 0,
      stillOwedFen: 180_00,
    });

    const [paid] = ledger.saveBatch([item({ amount: 800, type: 'INCOME', category: null, flow: 'reimbursement' })]);
    expect(paid).toMatchObject({ type: 'INCOME', flow: 'reimbursement' });
    expect(feb()).toMatchObject({ incomeFen: 0, expenseFen: 30_00 });
    expect(ledger.pendingReimbursements()).toEqual({
      rows: [{ id: hotel!.id, amountFen: 180_00, paidFen: 220_00, description: '吃饭', date: '2026-02-03', category: '住房' }],
      totalFen: 180_00,
    });
    expect(ledger.getTransaction(taxi!.id)).toMatchObject({ reimbursedBy: paid!.id });
    // Paid in part: not settled for the readers of reimbursed_by.
    expect(ledger.getTransaction(hotel!.id)!.reimbursedBy).toBeUndefined();
    expect(balanceOf('钱包')).toBe(-1010_00 + 800_00);

    // Deleting the payment puts what it settled back in 待报销.
    ledger.deleteTransaction(paid!.id);
    expect(ledger.pendingReimbursements().totalFen).toBe(980_00);
  });

  it('pays 80 and 420 of 600 with 500: 还差 180, and the next payment pays the rest and says 多出', () => {
    const [taxi, hotel] = ledger.saveBatch([
      item({ amount: 80, reimbursable: true, date: '2026-02-01' }),
      item({ amount: 600, reimbursable: true, date: '2026-02-02' }),
    ]);
    expect(ledger.proposeSettlement(500_00)).toEqual({ ids: [taxi!.id, hotel!.id], settledFen: 500_00, leftOverFen: 0, stillOwedFen: 180_00 });
    const [first] = ledger.saveBatch([item({ amount: 500, type: 'INCOME', flow: 'reimbursement' })]);
    expect(ledger.pendingReimbursements().rows.map((r) => [r.id, r.amountFen, r.paidFen])).toEqual([[hotel!.id, 180_00, 420_00]]);

    expect(ledger.proposeSettlement(200_00)).toEqual({ ids: [hotel!.id], settledFen: 180_00, leftOverFen: 20_00, stillOwedFen: 0 });
    const [second] = ledger.saveBatch([item({ amount: 200, type: 'INCOME', flow: 'reimbursement' })]);
    expect(ledger.pendingReimbursements()).toEqual({ rows: [], totalFen: 0 });
    expect(ledger.getTransaction(hotel!.id)).toMatchObject({ reimbursedBy: second!.id });
    expect(ledger.getTransaction(taxi!.id)).toMatchObject({ reimbursedBy: first!.id });

    // The first payment gone, what it paid waits again; the second's 180 still counts.
    ledger.deleteTransaction(first!.id);
    expect(ledger.pendingReimbursements().rows.map((r) => [r.id, r.amountFen, r.paidFen])).toEqual([
      [taxi!.id, 80_00, 0],
      [hotel!.id, 420_00, 180_00],
    ]);
  });

  it('pays the ticked expenses in the order given, passes over those no longer waiting, and says 多出 beyond them', () => {
    const [old, mid, fresh] = ledger.saveBatch([
      item({ amount: 80, reimbursable: true, date: '2026-02-01' }),
      item({ amount: 600, reimbursable: true, date: '2026-02-02' }),
      item({ amount: 50, reimbursable: true, date: '2026-02-03' }),
    ]);
    expect(ledger.proposeSettlement(100_00, [fresh!.id, old!.id])).toEqual({
      ids: [fresh!.id, old!.id],
      settledFen: 100_00,
      leftOverFen: 0,
      stillOwedFen: 30_00,
    });
    expect(ledger.proposeSettlement(100_00, [old!.id, 'gone', old!.id])).toEqual({
      ids: [old!.id],
      settledFen: 80_00,
      leftOverFen: 20_00,
      stillOwedFen: 0,
    });
    expect(ledger.proposeSettlement(100_00, [])).toEqual({ ids: [], settledFen: 0, leftOverFen: 100_00, stillOwedFen: 0 });

    ledger.saveBatch([item({ amount: 100, type: 'INCOME', flow: 'reimbursement', settles: [fresh!.id, old!.id] })]);
    expect(ledger.pendingReimbursements().rows.map((r) => [r.id, r.amountFen])).toEqual([
      [old!.id, 30_00],
      [mid!.id, 600_00],
    ]);
    // An empty choice pays nothing: the money is all 多出.
    ledger.saveBatch([item({ amount: 30, type: 'INCOME', flow: 'reimbursement', settles: [] })]);
    expect(ledger.pendingReimbursements().totalFen).toBe(630_00);
  });

  it('leaves the 待报销 a payment never reaches out of 还差: 80 against 80 + 600 settles the first exactly', () => {
    const [taxi] = ledger.saveBatch([item({ amount: 80, reimbursable: true, date: '2026-02-01' })]);
    const [hotel] = ledger.saveBatch([item({ amount: 600, reimbursable: true, date: '2026-02-02' })]);
    expect(ledger.proposeSettlement(80_00)).toEqual({ ids: [taxi!.id], settledFen: 80_00, leftOverFen: 0, stillOwedFen: 0 });
    // Ticked by the user, both were given: what the money does not reach is 还差.
    expect(ledger.proposeSettlement(80_00, [taxi!.id, hotel!.id])).toEqual({
      ids: [taxi!.id],
      settledFen: 80_00,
      leftOverFen: 0,
      stillOwedFen: 600_00,
    });
  });

  it('counts what an expense waits for net of its refunds', () => {
    const [hotel] = ledger.saveBatch([item({ amount: 600, reimbursable: true })]);
    ledger.saveBatch([item({ amount: 100, type: 'INCOME', flow: 'refund', refundOf: hotel!.id })]);
    expect(ledger.proposeSettlement(300_00)).toMatchObject({ settledFen: 300_00, stillOwedFen: 200_00 });
    ledger.saveBatch([item({ amount: 300, type: 'INCOME', flow: 'reimbursement' })]);
    expect(ledger.pendingReimbursements().rows.map((r) => [r.amountFen, r.paidFen])).toEqual([[200_00, 300_00]]);
  });

  it('reads an expense settled before parts existed (reimbursed_by, no parts) as waiting for nothing, until its payment is gone', () => {
    const [hotel, payment] = ledger.saveBatch([item({ amount: 600, reimbursable: true }), item({ amount: 600, type: 'INCOME', category: '工资' })]);
    ledger.database.prepare('UPDATE transactions SET reimbursed_by = ? WHERE id = ?').run(payment!.id, hotel!.id);
    expect(ledger.pendingReimbursements().totalFen).toBe(0);
    ledger.deleteTransaction(payment!.id);
    expect(ledger.pendingReimbursements().totalFen).toBe(600_00);
  });

  it('undo of a payment (and of its delete) brings the expenses back to waiting and settled again', () => {
    const history = new LedgerHistory(ledger);
    const [taxi, hotel] = history.saveBatch([
      item({ amount: 80, reimbursable: true, date: '2026-02-01' }),
      item({ amount: 600, reimbursable: true }),
    ]);
    const [paid] = history.saveBatch([item({ amount: 500, type: 'INCOME', flow: 'reimbursement' })]);
    expect(ledger.pendingReimbursements().totalFen).toBe(180_00);
    history.undo();
    expect(ledger.pendingReimbursements().totalFen).toBe(680_00);
    expect(ledger.getTransaction(taxi!.id)!.reimbursedBy).toBeUndefined();
    history.redo();
    expect(ledger.pendingReimbursements().rows.map((r) => [r.id, r.amountFen])).toEqual([[hotel!.id, 180_00]]);
    expect(ledger.getTransaction(taxi!.id)).toMatchObject({ reimbursedBy: paid!.id });

    history.remove([paid!.id]);
    expect(ledger.pendingReimbursements().totalFen).toBe(680_00);
    history.undo();
    expect(ledger.pendingReimbursements().totalFen).toBe(180_00);
  });

  it('keeps statistics net: a partly paid 待报销 stays out of spending, a reimbursement is never income, the money lands in the account', () => {
    ledger.saveBatch([item({ amount: 80, reimbursable: true }), item({ amount: 600, reimbursable: true }), item({ amount: 30 })]);
    const before = { month: feb(), all: ledger.monthSummary('2026-02', { includeReimbursed: true }) };
    ledger.saveBatch([item({ amount: 500, type: 'INCOME', flow: 'reimbursement' })]);
    expect(feb()).toMatchObject({ expenseFen: 30_00, incomeFen: 0 });
    expect(ledger.monthSummary('2026-02', { includeReimbursed: true })).toMatchObject({ expenseFen: 710_00, incomeFen: 0 });
    expect({ month: feb(), all: ledger.monthSummary('2026-02', { includeReimbursed: true }) }).toMatchObject({
      month: { expenseFen: before.month.expenseFen, incomeFen: before.month.incomeFen },
      all: { expenseFen: before.all.expenseFen, incomeFen: before.all.incomeFen },
    });
    expect(ledger.periodStats({ from: '2026-02-01', to: '2026-02-28', granularity: 'month' })).toMatchObject({ expenseFen: 30_00, incomeFen: 0 });
    expect(balanceOf('钱包')).toBe(-710_00 + 500_00);
  });

  it('settles exactly the expenses chosen on the card', () => {
    const [a, b] = ledger.saveBatch([item({ amount: 80, reimbursable: true }), item({ amount: 90, reimbursable: true })]);
    ledger.saveBatch([item({ amount: 90, type: 'INCOME', flow: 'reimbursement', settles: [b!.id] })]);
    expect(ledger.pendingReimbursements().rows.map((r) => r.id)).toEqual([a!.id]);
  });

  it('marks and unmarks an expense in the editor; only expenses can be 待报销', () => {
    const [meal, pay] = ledger.saveBatch([item({ amount: 50 }), item({ amount: 9000, type: 'INCOME', category: '工资' })]);
    ledger.updateTransaction(meal!.id, { reimbursable: true });
    expect(feb().expenseFen).toBe(0);
    ledger.updateTransaction(meal!.id, { reimbursable: false });
    expect(feb().expenseFen).toBe(50_00);
    expect(() => ledger.updateTransaction(pay!.id, { reimbursable: true })).toThrow('只有支出可以标记待报销');
  });
});

describe('credit cards', () => {
  it('counts spending on a card once, shows the card in debt, and a repayment is a transfer', () => {
    const card = ledger.addAccount('招行信用卡');
    expect(ledger.setCard(card.id, { statementDay: 5, dueDay: 23 })).toMatchObject({ kind: 'credit', statementDay: 5, dueDay: 23 });
    ledger.saveBatch([item({ amount: 2000, category: '购物', account: '招行信用卡' })]);
    ledger.addTransaction({ amountFen: 2000_00, type: 'TRANSFER', date: '2026-02-17', time: '12:00', account: '钱包', toAccount: '招行信用卡' });
    expect(balanceOf('招行信用卡')).toBe(0);
    expect(feb().expenseFen).toBe(2000_00);
    expect(() => ledger.setCard(card.id, { statementDay: 0, dueDay: 23 })).toThrow('账单日和还款日');
  });

  it('reminds of a card in debt once per due date, a few days before it', () => {
    const card = ledger.addAccount('信用卡');
    ledger.setCard(card.id, { statementDay: 1, dueDay: 20 });
    ledger.saveBatch([item({ amount: 300, account: '信用卡' })]);
    now = toZonedNow('2026-02-15T09:00:00+08:00');
    expect(ledger.cardReminders(3)).toEqual([]);
    now = toZonedNow('2026-02-17T09:00:00+08:00');
    expect(ledger.cardReminders(3)).toEqual([{ accountId: card.id, account: '信用卡', dueDate: '2026-02-20', daysLeft: 3, owedFen: 300_00 }]);
    expect(ledger.cardReminders(3)).toEqual([]);
  });

  it('finds the next due date, clamped to short months', () => {
    expect(nextDueDate('2026-02-17', 31)).toBe('2026-02-28');
    expect(nextDueDate('2026-02-28', 31)).toBe('2026-02-28');
    expect(nextDueDate('2026-03-01', 31)).toBe('2026-03-31');
    expect(nextDueDate('2026-12-25', 10)).toBe('2027-01-10');
  });
});
