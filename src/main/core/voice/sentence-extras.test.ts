// Spoken recurring rules, through the real composition root (IPC dispatch → voice session →
// ledger history → SQLite): 「每个月五号交房租三千」 is a card that shows its rule, and its
// confirmation is a rule plus this period's entry when that is due, in one save.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { VoiceSnapshot } from '@shared/ipc/index';
import type { AppCore } from '../app-core';
import { offlineCore } from '../../../../test/support/offline-core';

const cores: { core: AppCore; dir: string }[] = [];
afterEach(async () => {
  for (const { core, dir } of cores.splice(0)) {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The app on 2026-02-17 (a Tuesday) 12:00 in UTC+8, understanding offline. */
function boot() {
  const dir = mkdtempSync(join(tmpdir(), 'skj-spoken-rules-'));
  const spoken: string[] = [];
  const core = offlineCore(dir, { spoken });
  cores.push({ core, dir });
  const say = async (text: string): Promise<VoiceSnapshot> => {
    const result = await core.dispatch('voiceText', { text });
    if (!result.ok) throw new Error(`voiceText: ${result.error.message}`);
    return result.value as VoiceSnapshot;
  };
  const rows = () => core.ledger.list({}).rows.map((r) => `${r.date} ${r.description} ${r.amountFen} ${r.source}`);
  return { core, spoken, say, rows };
}

describe('a recurring rule said with its entry', () => {
  it("shows the rule on the card, then saves the rule and this month's entry when its day has come", async () => {
    const t = boot();
    const card = await t.say('每个月五号交房租三千');
    expect(card.batch?.items[0]?.result).toMatchObject({ amount: 3000, category: '住房', recurrence: { every: 'month', day: 5 } });
    expect(t.spoken.at(-1)).toBe('记录支出3000元，住房，每月5日，确认吗？');
    await t.say('确认');
    expect(t.rows()).toEqual(['2026-02-05 交房租 300000 recurring']);
    const [rule] = t.core.ledger.recurringRules();
    expect(rule).toMatchObject({ label: '每月5日', category: '住房', amountFen: 300000, nextDate: '2026-03-05', createdCount: 1, mode: 'save' });
    expect(t.spoken.at(-1)).toBe('已保存1笔交易。已设为周期记账：每月5日交房租，下次3月5日。');
    // The next month's entry comes from the rule, once, however often the app catches up.
    t.core.ledger.catchUpRecurring({ epochMs: Date.parse('2026-03-06T04:00:00Z'), offsetMinutes: 480 });
    t.core.ledger.catchUpRecurring({ epochMs: Date.parse('2026-03-07T04:00:00Z'), offsetMinutes: 480 });
    expect(t.rows()).toEqual(['2026-03-05 交房租 300000 recurring', '2026-02-05 交房租 300000 recurring']);
  });

  it('a day still to come this month saves only the rule, and says when its first entry will be', async () => {
    const t = boot();
    await t.say('每月二十号还车贷两千');
    await t.say('确认');
    expect(t.rows()).toEqual([]);
    expect(t.core.ledger.recurringRules()).toMatchObject([{ label: '每月20日', nextDate: '2026-02-20', createdCount: 0 }]);
    expect(t.spoken.at(-1)).toMatch(/^已设为周期记账：每月20日.*，下次2月20日。$/);
    t.core.ledger.catchUpRecurring({ epochMs: Date.parse('2026-02-20T01:00:00Z'), offsetMinutes: 480 });
    expect(t.rows()).toHaveLength(1);
  });

  it("with other items in the sentence: one save, the plain items as rows beside the rule's entry", async () => {
    const t = boot();
    const card = await t.say('每周一买菜两百，午饭三十');
    expect(card.batch?.items.map((i) => i.result.recurrence ?? null)).toEqual([{ every: 'week', day: 1 }, null]);
    await t.say('确认');
    // 2026-02-17 is a Tuesday: this week's Monday, the 16th, was due.
    expect(t.rows().sort()).toEqual(['2026-02-16 买菜 20000 recurring', '2026-02-17 午饭 3000 local']);
    expect(t.core.ledger.recurringRules()).toMatchObject([{ label: '每周一', nextDate: '2026-02-23' }]);
    expect(t.spoken.at(-1)).toBe('已保存2笔交易。已设为周期记账：每周一买菜，下次2月23日。');
  });

  it('撤销 takes back the rule with its entry, and the card comes back with its rule', async () => {
    const t = boot();
    await t.say('每个月五号交房租三千');
    await t.say('确认');
    const back = await t.say('撤销');
    expect(t.rows()).toEqual([]);
    expect(t.core.ledger.recurringRules()).toEqual([]);
    expect(back.batch?.items[0]?.result).toMatchObject({ amount: 3000, recurrence: { every: 'month', day: 5 } });
    // Confirmed again, it is one rule and one entry again.
    await t.say('确认');
    expect(t.rows()).toEqual(['2026-02-05 交房租 300000 recurring']);
    expect(t.core.ledger.recurringRules()).toHaveLength(1);
  });

  it('撤销 of a rule not due yet brings its item back as said', async () => {
    const t = boot();
    await t.say('每月二十号还车贷两千');
    await t.say('确认');
    const back = await t.say('撤销');
    expect(t.core.ledger.recurringRules()).toEqual([]);
    expect(back.batch?.items.map((i) => i.result.recurrence)).toEqual([{ every: 'month', day: 20 }]);
  });

  it('a bad item in the batch leaves no rule behind', () => {
    const t = boot();
    const now = { epochMs: Date.parse('2026-02-17T04:00:00Z'), offsetMinutes: 480 };
    const rent = {
      amount: 3000,
      type: 'EXPENSE' as const,
      category: '住房',
      description: '房租',
      date: null,
      account: null,
      confidence: 1,
      source: 'local' as const,
    };
    expect(() =>
      t.core.ledger.saveBatch(
        [
          { ...rent, recurrence: { every: 'month', day: 5 } },
          { ...rent, amount: -1 },
        ],
        { now },
      ),
    ).toThrow(/金额/);
    expect(t.core.ledger.recurringRules()).toEqual([]);
    expect(t.rows()).toEqual([]);
    // A money flow cannot repeat: refused with its item, nothing written.
    expect(() =>
      t.core.ledger.saveBatch([{ ...rent, type: 'TRANSFER', flow: 'lend', counterparty: '小李', recurrence: { every: 'month', day: 5 } }], { now }),
    ).toThrow(/不能设为周期记账/);
    expect(t.core.ledger.recurringRules()).toEqual([]);
  });
});

describe('tags and sub-categories said with an entry', () => {
  it('「打车三十五标签出差」 saves the row with its tag, and 明细 finds it by the tag', async () => {
    const t = boot();
    const card = await t.say('打车三十五标签出差');
    expect(card.batch?.items[0]?.result.tags).toEqual(['出差']);
    await t.say('确认');
    const [row] = t.core.ledger.list({}).rows;
    expect(row).toMatchObject({ amountFen: 3500, category: '交通', tags: ['出差'] });
    expect(t.core.ledger.count({ tag: '出差' })).toBe(1);
    expect(t.core.ledger.count({ tag: '旅游' })).toBe(0);
  });

  it('an item lands in the sub-category its words name when the user made one, else in the parent', async () => {
    const t = boot();
    const meals = t.core.ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
    t.core.ledger.addCategory('早餐', 'EXPENSE', meals.id);
    const card = await t.say('早饭包子八块，晚上吃火锅两百');
    expect(card.batch?.items.map((i) => i.result.category)).toEqual(['早餐', '餐饮']);
    expect(t.spoken.at(-1)).toContain('第1笔，支出8元，早餐');
    await t.say('确认');
    const rows = t.core.ledger.list({}).rows.map((r) => `${r.description} ${r.category} ${r.parentCategory ?? '-'}`);
    expect(rows.sort()).toEqual(['吃火锅 餐饮 -', '早饭包子 早餐 餐饮']);
    // 餐饮 counts its child: the parent's filter finds both.
    expect(t.core.ledger.count({ category: '餐饮' })).toBe(2);
  });

  it('a correction that names the parent is taken as said, not pushed back into the child', async () => {
    const t = boot();
    const meals = t.core.ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
    t.core.ledger.addCategory('早餐', 'EXPENSE', meals.id);
    await t.say('早饭包子八块');
    const fixed = await t.say('分类改成餐饮');
    expect(fixed.batch?.items[0]?.result.category).toBe('餐饮');
  });
});
