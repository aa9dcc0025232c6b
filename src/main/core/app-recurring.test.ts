import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { AppEvent } from '@shared/events';
import type { RecurringRuleInput } from './ledger/index';
import { createAppCore, type AppCore } from './app-core';
import { msToNextCheck } from './recurring-schedule';

// The composition root's schedule for recurring entries, on a fake clock: each open book
// catches up as it opens, hourly, and just after local midnight. No sleeps.
const HOUR = 3_600_000;
let dir: string;
let clock: FakeClock;
let cores: AppCore[];
let changes: string[];
let notices: { title: string; body: string }[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-app-recurring-'));
  // 2026-02-17 12:00 in UTC+8.
  clock = new FakeClock(Date.parse('2026-02-17T04:00:00Z'));
  cores = [];
  changes = [];
  notices = [];
});

afterEach(async () => {
  for (const core of cores) await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function start(): AppCore {
  const core = createAppCore({
    dataDir: dir,
    version: 'test',
    log: () => {},
    backups: false,
    notify: (n) => notices.push(n),
    recurring: { clock, now: () => ({ epochMs: clock.now(), offsetMinutes: 480 }) },
  });
  core.onEvent((e: AppEvent) => {
    if (e.channel === 'ledger' && e.event.type === 'changed') changes.push(e.event.reason);
  });
  cores.push(core);
  return core;
}

async function stop(core: AppCore): Promise<void> {
  cores.splice(cores.indexOf(core), 1);
  await core.dispose();
}

const monthly = (day: number, start = '2026-02-17'): RecurringRuleInput => ({
  type: 'EXPENSE',
  amountFen: 3000_00,
  category: '住房',
  description: '房租',
  rule: { every: 'month', day },
  start,
});
const made = (core: AppCore) =>
  core.ledger
    .list({})
    .rows.filter((r) => r.source === 'recurring')
    .map((r) => r.date);

describe('the recurring schedule', () => {
  it('makes a rule due tomorrow just after the clock passes local midnight, once', async () => {
    const core = start();
    core.ledger.addRecurringRule(monthly(18));
    await clock.advance(11 * HOUR + 59 * 60_000);
    expect(made(core)).toEqual([]);
    await clock.advance(2 * 60_000);
    expect(made(core)).toEqual(['2026-02-18']);
    expect(changes).toContain('recurring');
    await clock.advance(5 * HOUR);
    expect(made(core)).toEqual(['2026-02-18']);
  });

  it('tells of new offers of a rule that asks first, once, with a native notification', async () => {
    const core = start();
    core.ledger.addRecurringRule({ ...monthly(18), mode: 'draft' });
    await clock.advance(13 * HOUR);
    expect(made(core)).toEqual([]);
    expect(notices).toEqual([{ title: '周期记账提醒', body: '房租 ¥3,000.00（2月18日）到期，请到「周期记账」确认' }]);
    expect(core.ledger.recurringOffers().map((d) => d.date)).toEqual(['2026-02-18']);
    await clock.advance(5 * HOUR);
    expect(notices).toHaveLength(1);
  });

  it('a book opened after days off catches up once, as it opens', async () => {
    let core = start();
    core.ledger.addRecurringRule(monthly(18));
    await stop(core);
    // Forty days with the app closed: 2月18日 and 3月18日 fell due.
    await clock.advance(40 * 24 * HOUR);
    core = start();
    expect(made(core)).toEqual(['2026-03-18', '2026-02-18']);
    await clock.advance(3 * HOUR);
    expect(made(core)).toEqual(['2026-03-18', '2026-02-18']);
    await stop(core);
    core = start();
    expect(made(core)).toHaveLength(2);
  });

  it('every open book catches up, not only the current one; a book first opened later catches up then', async () => {
    const core = start();
    const trip = core.books.create('旅行', false).books.find((b) => b.name === '旅行')!;
    core.book(trip.id).ledger.addRecurringRule(monthly(18));
    const other = core.books.create('家里', false).books.find((b) => b.name === '家里')!;
    await clock.advance(13 * HOUR);
    expect(made(core)).toEqual([]);
    expect(
      core
        .book(trip.id)
        .ledger.list({})
        .rows.map((r) => r.date),
    ).toEqual(['2026-02-18']);

    // A rule of 家里 already due; after a restart 家里 is not open until it is first used,
    // and makes what fell due as it opens.
    core.book(other.id).ledger.addRecurringRule(monthly(1, '2026-01-01'));
    await stop(core);
    const last = start();
    expect(
      last
        .book(other.id)
        .ledger.list({})
        .rows.map((r) => r.date),
    ).toEqual(['2026-02-01', '2026-01-01']);
  });

  it('checks hourly, and a second past midnight when that comes first', () => {
    expect(msToNextCheck({ epochMs: Date.parse('2026-02-17T04:00:00Z'), offsetMinutes: 480 })).toBe(HOUR);
    expect(msToNextCheck({ epochMs: Date.parse('2026-02-17T15:30:00Z'), offsetMinutes: 480 })).toBe(HOUR / 2 + 1000);
    expect(msToNextCheck({ epochMs: Date.parse('2026-02-17T23:45:00Z'), offsetMinutes: -300 })).toBe(HOUR);
  });
});
