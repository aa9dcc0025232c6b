import type { RecurringRuleInfo } from '@shared/recurrence';
import { describe, expect, it } from 'vitest';
import type { ParseResult, TransactionType } from '@shared/domain';
import { DraftBatch } from '@shared/draft-batch';
import type { BudgetLine, BudgetStatus } from '@shared/ipc/ledger';
import type { SavedRow } from '@shared/flow-text';
import * as say from './templates';

/** `n` saved rows of plain spending: what a save hands the read-back. */
function rows(n: number): SavedRow[] {
  return Array.from({ length: n }, () => ({ amountFen: 6000, type: 'EXPENSE' as const, category: '餐饮', description: '吃饭' }));
}

function r(amount: number | null, type: TransactionType, category: string | null, description = ''): ParseResult {
  return { amount, type, category, description, date: null, account: null, confidence: 0.9, source: 'llm' };
}

describe('TTS templates', () => {
  it('reads a single draft back in the original single-item form', () => {
    expect(say.readBack(DraftBatch.fromResults([r(60, 'EXPENSE', '餐饮')]))).toBe('记录支出60元，餐饮，确认吗？');
  });

  it('asks for a loan or refund said without its amount by what the money did, its note being empty', () => {
    const loan = { ...r(null, 'TRANSFER', '转账'), flow: 'lend' as const, counterparty: '小李' };
    expect(say.askAmount(1, loan, 1)).toBe('借给小李多少钱？');
    expect(say.askAmount(2, { ...r(null, 'INCOME', '购物'), flow: 'refund' as const }, 2)).toBe('第2笔退款多少钱？');
    expect(say.askAmount(1, r(null, 'TRANSFER', '转账'), 1)).toBe('转账多少钱？');
  });

  it('says the rule and the tags a sentence gave, so the user hears they were understood', () => {
    const rent = { ...r(3000, 'EXPENSE', '住房', '交房租'), recurrence: { every: 'month' as const, day: 5 } };
    expect(say.readBack(DraftBatch.fromResults([rent]))).toBe('记录支出3000元，住房，每月5日，确认吗？');
    const taxi = { ...r(35, 'EXPENSE', '交通', '打车'), tags: ['出差', '报销'] };
    expect(say.readBack(DraftBatch.fromResults([taxi]))).toBe('记录支出35元，交通，标签出差、报销，确认吗？');
  });

  it('after a save names each rule made, and only the rule when its first entry is still to come', () => {
    const rule = { label: '每月20日', description: '还车贷', category: '其他', nextDate: '2026-02-20' } as RecurringRuleInfo;
    expect(say.saved(rows(0), [], [rule])).toBe('已设为周期记账：每月20日还车贷，下次2月20日。');
    expect(say.saved(rows(2), [], [{ ...rule, description: '' }])).toBe('已保存2笔交易。已设为周期记账：每月20日其他，下次2月20日。');
    expect(say.saved(rows(1))).toBe('已保存1笔交易。');
  });

  it('itemises 2–5 drafts (design example 1)', () => {
    const batch = DraftBatch.fromResults([
      r(60, 'EXPENSE', '餐饮', '吃饭'),
      r(60, 'EXPENSE', '洗浴', '洗脚'),
      r(30, 'INCOME', '红包', '抢红包'),
      r(90, 'INCOME', '工资', '工资'),
    ]);
    expect(say.readBack(batch)).toBe(
      '识别到4笔交易：第1笔，支出60元，餐饮；第2笔，支出60元，洗浴；第3笔，收入30元，红包；第4笔，收入90元，工资。请确认或修改。',
    );
  });

  it('summarises 6–10 drafts with totals per type, exact to the fen', () => {
    const batch = DraftBatch.fromResults([
      r(10.1, 'EXPENSE', '餐饮'),
      r(20.2, 'EXPENSE', '交通'),
      r(0.7, 'EXPENSE', '购物'),
      r(5, 'EXPENSE', '其他'),
      r(100, 'INCOME', '工资'),
      r(0.5, 'INCOME', '红包'),
    ]);
    expect(say.readBack(batch)).toBe('识别到6笔交易，共36元支出、100.50元收入。请查看详情后确认。');
  });

  it('formats amounts: integers bare, anything else with two decimals', () => {
    expect(say.amountText(35)).toBe('35');
    expect(say.amountText(15.0)).toBe('15');
    expect(say.amountText(12.5)).toBe('12.50');
    expect(say.amountText(0.05)).toBe('0.05');
  });

  it('targeted fix, item cancelled, appended, saved', () => {
    // A new day is said too: the spec's template has no date, and 「打车那笔是昨天」 must be heard to land.
    expect(say.corrected([{ number: 3, result: { ...r(20, 'EXPENSE', '交通'), date: '2026-02-16' }, dateChanged: true }], 4)).toBe(
      '已将第3笔修改为支出20元，交通，2月16日。还需要修改吗？',
    );
    expect(say.corrected([{ number: 1, result: r(60, 'INCOME', '红包') }], 2)).toBe('已将第1笔修改为收入60元，红包。还需要修改吗？');
    // One item on the card: the single-transaction wording of design Example 3.
    expect(say.corrected([{ number: 1, result: r(60, 'EXPENSE', '红包') }], 1)).toBe('已修改为支出60元，红包，确认吗？');
    expect(
      say.corrected(
        [
          { number: 1, result: r(70, 'EXPENSE', '餐饮') },
          { number: 2, result: r(40, 'EXPENSE', '交通') },
        ],
        2,
      ),
    ).toBe('已将第1笔修改为支出70元，餐饮。已将第2笔修改为支出40元，交通。还需要修改吗？');
    expect(say.itemCancelled(2, r(60, 'EXPENSE', '洗浴', '洗脚'), 3)).toBe('已取消第2笔（洗脚60元）。剩余3笔待确认。');
    expect(say.itemCancelled(2, r(8.5, 'EXPENSE', '交通', ''), 1)).toBe('已取消第2笔（交通8.50元）。剩余1笔待确认。');
    const three = DraftBatch.fromResults([r(60, 'EXPENSE', '餐饮', '吃饭'), r(30, 'EXPENSE', '交通', '打车'), r(15, 'EXPENSE', '饮品', '奶茶')]);
    expect(say.appended([{ number: 3, result: three.items[2]!.result }], three)).toBe('已追加第3笔，支出15元，饮品。现在共3笔，请确认或修改。');
    const open = DraftBatch.fromResults([r(60, 'EXPENSE', '餐饮', '吃饭'), r(null, 'EXPENSE', '交通', '打车')]);
    expect(say.appended([{ number: 2, result: open.items[1]!.result }], open)).toBe('已追加第2笔，打车，金额未知。现在共2笔，第2笔打车多少钱？');
    expect(say.saved(rows(4))).toBe('已保存4笔交易。');
  });

  it('a saved money flow is read back in its own words, never as 交易 of spending or income; several rows keep the spec’s count', () => {
    const refund: SavedRow = {
      amountFen: 30000,
      type: 'EXPENSE',
      flow: 'refund',
      category: '购物',
      // The sentence's own words: a linked refund is named by the purchase it returns.
      description: '淘宝买鞋那笔退',
      refundTarget: { date: '2026-02-01', description: '淘宝买鞋', amountFen: 50000 },
    };
    expect(say.saved([refund])).toBe('已保存：退款300元，淘宝买鞋。');
    // 「报销到账五百」 leaves 报销 as the row's words: the flow says it once.
    expect(say.saved([{ amountFen: 50000, type: 'INCOME', flow: 'reimbursement', category: '报销', description: '报销' }])).toBe(
      '已保存：报销到账500元。',
    );
    expect(say.saved([{ amountFen: 100000, type: 'TRANSFER', flow: 'lend', person: '小李', category: '借贷', description: '' }])).toBe(
      '已保存：借给小李1000元。',
    );
    expect(say.saved([{ ...refund, refundTarget: undefined }])).toBe('已保存：退款300元，淘宝买鞋那笔退。');
    expect(say.saved([refund, ...rows(1)])).toBe('已保存2笔交易。');
  });

  it('fixed phrases are the specs’ words', () => {
    expect(say.PHRASES.correcting).toBe('好的，正在修改...');
    expect(say.PHRASES.unclear).toBe('没听清要改什么，请再说一次');
    expect(say.PHRASES.appendLimit).toBe('已达上限，请先确认当前交易');
    expect(say.PHRASES.cancelled).toBe('已取消。');
    expect(say.PHRASES.goOn).toBe('请说');
    expect(say.PHRASES.batchFull).toBe('最多只能记10笔');
  });

  it('a missing amount is read back as unknown and asked for, never as 「未知金额元」', () => {
    const batch = DraftBatch.fromResults([r(null, 'EXPENSE', '交通', '打车'), r(35, 'EXPENSE', '餐饮', '午饭')]);
    expect(say.readBack(batch)).toBe('识别到2笔交易：第1笔，打车，金额未知；第2笔，支出35元，餐饮。第1笔打车多少钱？');
    const one = DraftBatch.fromResults([r(null, 'EXPENSE', '交通', '打车')]);
    expect(say.readBack(one)).toBe('打车，金额未知。打车多少钱？');
    expect(say.itemCancelled(1, batch.items[0]!.result, 1)).toBe('已取消第1笔（打车，金额未知）。剩余1笔待确认。');
    const many = DraftBatch.fromResults([...Array.from({ length: 6 }, () => r(10, 'EXPENSE', '餐饮', '午饭')), r(null, 'EXPENSE', '交通', '打车')]);
    expect(say.readBack(many)).toBe('识别到7笔交易，共60元支出、0元收入。第7笔打车多少钱？');
    for (const text of [say.readBack(batch), say.readBack(one), say.readBack(many)]) expect(text).not.toContain('未知金额元');
  });

  it('session summary names the count and the non-zero totals', () => {
    expect(say.summary({ savedCount: 3, expenseFen: 9050, incomeFen: 0, transferFen: 0 })).toBe('本次记了3笔，支出90.50元。再见！');
    expect(say.summary({ savedCount: 2, expenseFen: 6000, incomeFen: 3000, transferFen: 0 })).toBe('本次记了2笔，支出60元，收入30元。再见！');
    expect(say.summary({ savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0 })).toBe('本次没有记账。再见！');
    const kept = [r(null, 'EXPENSE', '交通', '打车'), r(35, 'EXPENSE', '餐饮', '午饭')];
    expect(say.summary({ savedCount: 1, expenseFen: 600, incomeFen: 0, transferFen: 0, unconfirmed: kept })).toBe(
      '本次记了1笔，支出6元。还有2笔未确认，下次开始记账时继续确认。再见！',
    );
  });

  it('answers ledger queries by period, category and type', () => {
    const month = { from: '2026-02-01', to: '2026-02-28', type: 'EXPENSE' as const, category: null, periodLabel: '这个月' };
    expect(say.queryAnswer(month, 12050, 3)).toBe('这个月支出共120.50元，3笔。');
    expect(say.queryAnswer({ ...month, category: '餐饮', periodLabel: '今天' }, 0, 0)).toBe('今天餐饮支出还没有记录。');
  });
});

describe('budget sentences', () => {
  const month = { month: '2026-02', category: null, periodLabel: '本月' };
  const line = (category: string | null, budgetFen: number, spentFen: number): BudgetLine => ({
    categoryId: category ? 1 : null,
    category,
    budgetFen,
    spentFen,
    percent: Math.floor((spentFen * 100) / budgetFen),
    level: 'ok',
  });
  const status = (lines: BudgetLine[], total: BudgetLine | null): BudgetStatus => ({
    month: '2026-02',
    source: '2026-02',
    inherited: false,
    lines,
    total,
  });

  it('answers with the total budget, what is used and what is left or over', () => {
    expect(say.budgetAnswer(month, status([line('餐饮', 100000, 90000)], line(null, 300000, 120000)))).toBe(
      '本月总预算3000元，已用1200元，还剩1800元。',
    );
    expect(say.budgetAnswer(month, status([], line(null, 300000, 320000)))).toBe('本月总预算3000元，已用3200元，超出200元。');
    expect(say.budgetAnswer(month, status([], line(null, 300000, 300050)))).toBe('本月总预算3000元，已用3000.50元，超出0.50元。');
  });

  it('answers a category asked about with its own line, or says it has none', () => {
    const both = status([line('餐饮', 100000, 82000)], line(null, 300000, 120000));
    expect(say.budgetAnswer({ ...month, category: '餐饮' }, both)).toBe('本月餐饮预算1000元，已用820元，还剩180元。');
    expect(say.budgetAnswer({ ...month, category: '交通' }, both)).toBe('本月没有设置交通预算，可以在“预算”页设置。');
  });

  it('sums the category budgets when there is no total', () => {
    const lines = [line('餐饮', 100000, 82000), line('交通', 50000, 10050)];
    expect(say.budgetAnswer(month, status(lines, null))).toBe('本月各分类预算共1500元，已用920.50元，还剩579.50元。');
  });

  it('points to the budgets page when the month has none, naming the month asked about', () => {
    expect(say.budgetAnswer(month, status([], null))).toBe('本月还没有设置预算，可以在“预算”页设置。');
    expect(say.budgetAnswer({ ...month, periodLabel: '上个月' }, status([], null))).toBe('上个月还没有设置预算，可以在“预算”页设置。');
  });

  it('names each crossed threshold after the save, one sentence each', () => {
    const alert = (category: string | null, threshold: 80 | 100, percent: number) => ({
      month: '2026-02',
      categoryId: category ? 1 : null,
      category,
      threshold,
      percent,
      spentFen: 0,
      budgetFen: 1,
    });
    expect(say.saved(rows(1))).toBe('已保存1笔交易。');
    expect(say.saved(rows(1), [alert('餐饮', 80, 82)])).toBe('已保存1笔交易。餐饮本月已用 82%。');
    expect(say.saved(rows(2), [alert('餐饮', 100, 104), alert(null, 80, 85)])).toBe('已保存2笔交易。餐饮本月已用 104%。总预算本月已用 85%。');
  });
});
