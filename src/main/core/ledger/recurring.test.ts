import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDays, toZonedNow, type ZonedNow } from '@shared/time';
import { LedgerHistory, openLedger, type Ledger, type RecurringRuleInput } from './index';
import { LedgerRuleError, LedgerValidationError } from './errors';
import { rentRule } from '../../../../test/support/ledger-fixtures';

let ledger: Ledger;
let now: ZonedNow;
const at = (day: string, time = '09:30:00') => toZonedNow(`${day}T${time}+08:00`);

beforeEach(() => {
  now = at('2026-03-01');
  ledger = openLedger({ path: ':memory:', now: () => now });
});
afterEach(() => ledger.close());

/** Rent from 2026-03-01, the day these tests start on. */
const rent = (over: Partial<RecurringRuleInput> = {}): RecurringRuleInput => rentRule({ start: '2026-03-01', ...over });

const recurringRows = () =>
  ledger.database
    .prepare(
      "SELECT occurred_date AS day, recurrence_key AS key, amount_fen AS fen FROM transactions WHERE source = 'recurring' ORDER BY occurred_date",
    )
    .all() as { day: string; key: string; fen: number }[];

describe('rules', () => {
  it('creates, lists with next date and label, edits, pauses and deletes a rule', () => {
    const rule = ledger.addRecurringRule(rent());
    expect(rule).toMatchObject({
      label: '每月5日',
      nextDate: '2026-03-05',
      category: '住房',
      account: '钱包',
      mode: 'save',
      paused: false,
      createdCount: 0,
    });
    expect(rule.key).toMatch(/^r[0-9a-f]{16}$/);
    const daily = ledger.addRecurringRule({ type: 'EXPENSE', amountFen: 15_00, category: '餐饮', rule: { every: 'day' }, start: '2026-03-02' });
    expect(ledger.recurringRules().map((r) => [r.label, r.nextDate])).toEqual([
      ['每天', '2026-03-02'],
      ['每月5日', '2026-03-05'],
    ]);
    // A new day takes effect from today on.
    expect(ledger.updateRecurringRule(rule.id, { rule: { every: 'month', day: -1 }, amountFen: 3200_00 })).toMatchObject({
      label: '每月月末',
      nextDate: '2026-03-31',
      amountFen: 3200_00,
    });
    expect(ledger.setRecurringPaused(daily.id, true).paused).toBe(true);
    expect(ledger.recurringRules().map((r) => r.label)).toEqual(['每月月末', '每天']);
    ledger.deleteRecurringRule(daily.id);
    expect(ledger.recurringRules()).toHaveLength(1);
    expect(() => ledger.recurringRule(daily.id)).toThrow(LedgerRuleError);
  });

  it('refuses what cannot be kept, in Chinese', () => {
    expect(() => ledger.addRecurringRule(rent({ rule: { every: 'month', day: 32 } }))).toThrow(LedgerValidationError);
    expect(() => ledger.addRecurringRule(rent({ amountFen: 0 }))).toThrow('金额无效');
    expect(() => ledger.addRecurringRule(rent({ account: '不存在' }))).toThrow('账户「不存在」不存在或已归档');
    expect(() => ledger.addRecurringRule(rent({ end: '2026-01-01' }))).toThrow('结束日期早于开始日期');
    expect(ledger.recurringRules()).toEqual([]);
  });

  it('keeps a rule said without its day complete: the start date’s', () => {
    expect(ledger.addRecurringRule(rent({ rule: { every: 'year', month: 3 }, start: '2026-03-15' }))).toMatchObject({
      rule: { every: 'year', month: 3, day: 15 },
      label: '每年3月15日',
      nextDate: '2026-03-15',
    });
  });
});

describe('catch-up', () => {
  it('after 400 days off makes every missed occurrence once, on its own day, and balances follow', () => {
    ledger.addRecurringRule(rent());
    ledger.addRecurringRule({ type: 'INCOME', amountFen: 9000_00, category: '工资', rule: { every: 'month', day: -1 }, start: '2026-03-01' });
    ledger.addRecurringRule({ type: 'EXPENSE', amountFen: 10_00, category: '交通', rule: { every: 'week', day: 1 }, start: '2026-03-01' });
    const back = at(addDays('2026-03-01', 400));
    const result = ledger.catchUpRecurring(back);
    const rows = recurringRows();
    const days = (prefix: string) => rows.filter((r) => r.fen === { rent: 3000_00, pay: 9000_00, bus: 10_00 }[prefix]).map((r) => r.day);
    // 2026-03-01 + 400 days is Monday 2027-04-05: fourteen 5ths, 58 Mondays, thirteen month ends.
    expect(days('rent')).toHaveLength(14);
    expect(days('rent')[0]).toBe('2026-03-05');
    expect(days('pay')).toHaveLength(13);
    expect(days('pay')).toContain('2027-02-28');
    expect(days('bus')).toHaveLength(58);
    expect(result.saved).toHaveLength(rows.length);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
    expect(ledger.accountBalances().totalFen).toBe(14 * -3000_00 + 13 * 9000_00 + 58 * -10_00);
    expect(ledger.recurringRules().every((r) => r.nextDate! > '2027-04-05')).toBe(true);
    // A second call, now or later the same day, makes nothing.
    expect(ledger.catchUpRecurring(back)).toEqual({ saved: [], drafts: [] });
    expect(ledger.catchUpRecurring(at('2027-04-05', '23:59:00'))).toEqual({ saved: [], drafts: [] });
    expect(recurringRows()).toHaveLength(rows.length);
  });

  it('dates each row on its day at the time of the catch-up, in the user’s offset, as source recurring', () => {
    ledger.addRecurringRule(rent());
    const [id] = ledger.catchUpRecurring(at('2026-03-07', '08:00:00')).saved;
    expect(ledger.getTransaction(id!)).toMatchObject({
      date: '2026-03-05',
      occurredAt: '2026-03-05T08:00:00+08:00',
      source: 'recurring',
      description: '房租',
    });
  });

  it('stops at the end date and after the count', () => {
    const ending = ledger.addRecurringRule(rent({ end: '2026-05-05' }));
    const counted = ledger.addRecurringRule(rent({ amountFen: 100, rule: { every: 'day' }, count: 10 }));
    ledger.catchUpRecurring(at('2026-03-04'));
    ledger.catchUpRecurring(at('2026-12-31'));
    expect(
      recurringRows()
        .filter((r) => r.fen === 3000_00)
        .map((r) => r.day),
    ).toEqual(['2026-03-05', '2026-04-05', '2026-05-05']);
    expect(recurringRows().filter((r) => r.fen === 100)).toHaveLength(10);
    expect(ledger.recurringRule(ending.id).nextDate).toBeNull();
    expect(ledger.recurringRule(counted.id)).toMatchObject({ nextDate: null, createdCount: 10 });
  });

  it('skips a paused rule and, resumed, goes on from today without what fell due meanwhile', () => {
    const rule = ledger.addRecurringRule(rent());
    ledger.setRecurringPaused(rule.id, true);
    expect(ledger.catchUpRecurring(at('2026-06-10')).saved).toEqual([]);
    now = at('2026-06-10');
    expect(ledger.setRecurringPaused(rule.id, false).nextDate).toBe('2026-07-05');
    ledger.catchUpRecurring(at('2026-07-05'));
    expect(recurringRows().map((r) => r.day)).toEqual(['2026-07-05']);
  });

  it('offers a draft-mode rule’s occurrences once; confirming saves each under its key, once', () => {
    const rule = ledger.addRecurringRule(rent({ mode: 'draft' }));
    const { saved, drafts } = ledger.catchUpRecurring(at('2026-04-06'));
    expect(saved).toEqual([]);
    expect(drafts).toEqual([
      expect.objectContaining({
        ruleId: rule.id,
        date: '2026-03-05',
        recurrenceKey: `${rule.key}:2026-03-05`,
        amountFen: 3000_00,
        category: '住房',
        label: '每月5日',
      }),
      expect.objectContaining({ date: '2026-04-05', recurrenceKey: `${rule.key}:2026-04-05` }),
    ]);
    expect(recurringRows()).toEqual([]);
    expect(ledger.catchUpRecurring(at('2026-04-06')).drafts).toEqual([]);
    expect(ledger.recurringRule(rule.id)).toMatchObject({ nextDate: '2026-05-05', createdCount: 2 });
    // The user changes the amount of one before confirming; confirming it again saves nothing more.
    const row = ledger.confirmRecurringDraft({ ...drafts[0]!, amountFen: 3100_00 });
    expect(row).toMatchObject({ date: '2026-03-05', amountFen: 3100_00, category: '住房', source: 'recurring' });
    expect(ledger.confirmRecurringDraft(drafts[0]!).id).toBe(row.id);
    expect(recurringRows()).toEqual([{ day: '2026-03-05', key: `${rule.key}:2026-03-05`, fen: 3100_00 }]);
    expect(() => ledger.confirmRecurringDraft({ ...drafts[1]!, recurrenceKey: 'nonsense' })).toThrow(LedgerValidationError);
  });

  it('keeps the offers until each is confirmed or dismissed, across a reopen, and never offers one again', () => {
    const rule = ledger.addRecurringRule(rent({ mode: 'draft' }));
    const daily = ledger.addRecurringRule(rent({ mode: 'draft', rule: { every: 'day' }, start: '2026-04-05', count: 1 }));
    const { drafts } = ledger.catchUpRecurring(at('2026-04-06'));
    expect(ledger.recurringOffers().map((d) => [d.ruleId, d.date])).toEqual([
      [rule.id, '2026-03-05'],
      [rule.id, '2026-04-05'],
      [daily.id, '2026-04-05'],
    ]);
    ledger.confirmRecurringDraft(drafts[0]!);
    ledger.dismissRecurringDraft(drafts[1]!.recurrenceKey);
    // A second catch-up offers nothing new and leaves what is waiting.
    ledger.catchUpRecurring(at('2026-04-07'));
    expect(ledger.recurringOffers().map((d) => d.recurrenceKey)).toEqual([`${daily.key}:2026-04-05`]);
    expect(recurringRows().map((r) => r.day)).toEqual(['2026-03-05']);
    // Deleting a rule takes its waiting offers with it.
    ledger.deleteRecurringRule(daily.id);
    expect(ledger.recurringOffers()).toEqual([]);
  });

  it('offers survive a restart; one confirmed elsewhere (its row synced in) is no longer offered', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skj-offers-'));
    try {
      const path = join(dir, 'ledger.db');
      let file = openLedger({ path, now: () => now });
      file.addRecurringRule(rent({ mode: 'draft' }));
      const { drafts } = file.catchUpRecurring(at('2026-04-06'));
      file.close();
      file = openLedger({ path, now: () => now });
      expect(file.recurringOffers()).toEqual(drafts);
      expect(file.catchUpRecurring(at('2026-04-06')).drafts).toEqual([]);
      const row = file.confirmRecurringDraft(drafts[0]!);
      expect(file.recurringOffers().map((d) => d.date)).toEqual(['2026-04-05']);
      // The second occurrence's row arrives as another device's confirm would leave it.
      file.database.prepare('UPDATE transactions SET recurrence_key = ? WHERE id = ?').run(drafts[1]!.recurrenceKey, row.id);
      expect(file.recurringOffers()).toEqual([]);
      file.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an edit of the dates on the day an occurrence was made does not make or offer that day again', () => {
    const rule = ledger.addRecurringRule(rent({ mode: 'draft', rule: { every: 'month', day: 1 } }));
    const [today] = ledger.catchUpRecurring(now).drafts;
    ledger.dismissRecurringDraft(today!.recurrenceKey);
    // Moved to every day, from the same start: today was offered, tomorrow is next.
    expect(ledger.updateRecurringRule(rule.id, { rule: { every: 'day' } }).nextDate).toBe('2026-03-02');
    expect(ledger.catchUpRecurring(now).drafts).toEqual([]);
    expect(ledger.recurringOffers()).toEqual([]);
  });

  it('makes 1 000 due occurrences of four rules in one call', () => {
    for (let i = 0; i < 3; i++) ledger.addRecurringRule(rent({ amountFen: 100 + i, rule: { every: 'day' } }));
    ledger.addRecurringRule(rent({ amountFen: 99, rule: { every: 'day' }, count: 1000 - 3 * 333 }));
    expect(ledger.catchUpRecurring(at(addDays('2026-03-01', 332))).saved).toHaveLength(1000);
  });
});

describe('undo', () => {
  it('does not take back what catch-up made; a deleted occurrence comes back by undo with its key, and catch-up never makes it again', () => {
    const changes: string[] = [];
    const history = new LedgerHistory(ledger, { onChange: (reason) => changes.push(reason) });
    ledger.addRecurringRule(rent());
    const [id] = history.catchUpRecurring(at('2026-03-05')).saved;
    expect(changes).toEqual(['recurring']);
    expect(history.state().canUndo).toBe(false);
    history.remove([id!]);
    expect(recurringRows()).toEqual([]);
    expect(ledger.catchUpRecurring(at('2026-03-06')).saved).toEqual([]);
    history.undo();
    expect(recurringRows()).toEqual([{ day: '2026-03-05', key: expect.stringMatching(/:2026-03-05$/), fen: 3000_00 }]);
    expect(ledger.getTransaction(id!)).toBeDefined();
  });

  it('a confirmed draft is the user’s save: Ctrl+Z takes it back', () => {
    const history = new LedgerHistory(ledger);
    ledger.addRecurringRule(rent({ mode: 'draft' }));
    const [draft] = history.catchUpRecurring(at('2026-03-05')).drafts;
    history.confirmRecurringDraft(draft!);
    expect(history.state().undoLabel).toBe('记账 1 笔');
    history.undo();
    expect(recurringRows()).toEqual([]);
    history.redo();
    expect(recurringRows()).toHaveLength(1);
  });
});

describe('the rules’ category and accounts', () => {
  it('a category or account a rule uses is still refused or moved with the rule', () => {
    const pets = ledger.addCategory('猫粮', 'EXPENSE');
    const card = ledger.addAccount('招行');
    const rule = ledger.addRecurringRule(rent({ category: '猫粮', account: '招行' }));
    expect(() => ledger.deleteCategory(pets.id)).toThrow(LedgerRuleError);
    ledger.deleteCategory(pets.id, ledger.listCategories().find((c) => c.name === '宠物')!.id);
    expect(ledger.recurringRule(rule.id).category).toBe('宠物');
    expect(() => ledger.deleteAccount(card.id)).toThrow(LedgerRuleError);
  });
});
