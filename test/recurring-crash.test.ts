import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { nextOccurrence, occurrences, type Schedule } from '@shared/recurrence';
import { addDays } from '@shared/time';
import { openLedger } from '@core/ledger/index';
import { prng } from './support/prng';

/**
 * Recurring catch-up through kill -9: a child process catches up a ledger's recurring rules
 * after weeks off and is SIGKILLed at random moments of it; after every kill a plain SQLite
 * reader finds an intact file where EVERY rule stands at the same day — the one before the
 * catch-up or the one after, never in between — with each occurrence up to it once and the
 * rule's count and next date matching its rows. The next start catches up what the killed
 * one did not, and a final catch-up leaves every occurrence exactly once.
 *
 * SUIKOUJI_RECURRING_KILLS sets the number of kills (default 12); SUIKOUJI_CRASH_SEED replays
 * the kill moments of a failed run (it is printed on failure).
 */

const KILLS = Number(process.env.SUIKOUJI_RECURRING_KILLS ?? 12);
const SEED = Number(process.env.SUIKOUJI_CRASH_SEED ?? Date.now() % 1_000_000);
const root = resolve(import.meta.dirname, '..');
const CHILD = join(root, 'test/support/recurring-crash-child.ts');
const START = '2024-01-01';
/** Days off between two starts of the app. */
const GAP = 45;

const dir = mkdtempSync(join(tmpdir(), 'skj-recurring-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one catch-up as of `day`, SIGKILLed `delayMs` after it opened the ledger (null: never). */
function catchUpAndKill(
  path: string,
  day: string,
  delayMs: number | null,
): Promise<{ saved: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, day], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const wasReady = out.startsWith('ready\n');
      out += chunk;
      if (!wasReady && out.startsWith('ready\n') && delayMs !== null) timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('saved '));
      done({ saved: line ? Number(line.slice('saved '.length)) : null, signal, stderr });
    });
  });
}

interface RuleState {
  key: string;
  schedule: Schedule;
  createdCount: number;
  nextDate: string | null;
  days: string[];
}

/** Each rule, its counters and the days of its rows, as a plain read-only reader sees the file. */
function plainRead(path: string): { integrity: string; rules: RuleState[] } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
    const rules = db.prepare('SELECT sync_id, every, day, start_date, created_count, next_date FROM recurring_rules ORDER BY id').all() as {
      sync_id: string;
      every: 'day' | 'month';
      day: number | null;
      start_date: string;
      created_count: number;
      next_date: string | null;
    }[];
    const days = db.prepare('SELECT occurred_date FROM transactions WHERE recurrence_key LIKE ? ORDER BY occurred_date').pluck();
    return {
      integrity,
      rules: rules.map((r) => ({
        key: r.sync_id,
        schedule: { rule: { every: r.every, ...(r.day !== null ? { day: r.day } : {}) }, start: r.start_date },
        createdCount: r.created_count,
        nextDate: r.next_date,
        days: days.all(`${r.sync_id}:%`) as string[],
      })),
    };
  } finally {
    db.close();
  }
}

/** The one day every rule stands at (each occurrence up to it once, counters matching), or the problems found. */
function standingDay(rules: readonly RuleState[], candidates: readonly string[]): { day: string | null; problems: string[] } {
  for (const day of candidates) {
    const problems = rules.flatMap((r) => {
      const want = occurrences(r.schedule, r.schedule.start, day);
      const out: string[] = [];
      if (JSON.stringify(r.days) !== JSON.stringify(want)) out.push(`${r.key}: ${r.days.length} rows, ${want.length} occurrences up to ${day}`);
      if (r.createdCount !== want.length) out.push(`${r.key}: created_count ${r.createdCount}, ${want.length} occurrences up to ${day}`);
      if (r.nextDate !== nextOccurrence(r.schedule, day)) out.push(`${r.key}: next_date ${r.nextDate} after ${day}`);
      return out;
    });
    if (problems.length === 0) return { day, problems };
  }
  return {
    day: null,
    problems: [
      `no day of ${candidates.join(', ')} fits every rule: ${JSON.stringify(rules.map((r) => [r.key, r.days.length, r.createdCount, r.nextDate]))}`,
    ],
  };
}

describe('recurring catch-up through kill -9', () => {
  it(`makes every occurrence exactly once through ${KILLS} SIGKILLs during catch-up (seed ${SEED})`, { timeout: 240_000 }, async () => {
    const path = join(dir, 'ledger.db');
    const setup = openLedger({ path, now: () => ({ epochMs: Date.parse(`${START}T00:00:00Z`), offsetMinutes: 480 }) });
    // Synced, so every row also writes its journal entries in the same transaction.
    setup.journal.setCapture(true);
    for (let i = 0; i < 60; i++) {
      setup.addRecurringRule({ type: 'EXPENSE', amountFen: 100 + i, category: '餐饮', rule: { every: 'day' }, start: START });
    }
    for (let i = 0; i < 10; i++) {
      setup.addRecurringRule({
        type: 'EXPENSE',
        amountFen: 3000_00 + i,
        category: '住房',
        rule: { every: 'month', day: i === 0 ? -1 : 31 - i },
        start: START,
      });
    }
    setup.close();

    const rnd = prng(SEED);
    let standing = addDays(START, -1);
    let killedMidway = 0;
    for (let k = 0; k < KILLS; k++) {
      const today = addDays(START, GAP * (k + 1));
      const run = await catchUpAndKill(path, today, rnd() * 120);
      const context = `kill ${k + 1}/${KILLS} on ${today}, seed ${SEED}`;
      const state = plainRead(path);
      expect(state.integrity, context).toBe('ok');
      const found = standingDay(state.rules, run.saved !== null ? [today] : [standing, today]);
      expect(found.problems, `${context}\n${run.stderr}`).toEqual([]);
      if (run.saved === null && run.signal === 'SIGKILL' && found.day === standing) killedMidway++;
      standing = found.day!;
    }
    // Most kills must land before the catch-up committed, or the test proves little.
    expect(killedMidway).toBeGreaterThan(KILLS / 3);

    const last = addDays(START, GAP * (KILLS + 1));
    const final = await catchUpAndKill(path, last, null);
    expect(final.saved, final.stderr).toBeGreaterThan(0);
    const state = plainRead(path);
    expect(standingDay(state.rules, [last]).problems).toEqual([]);
    expect((await catchUpAndKill(path, last, null)).saved).toBe(0);
  });
});
