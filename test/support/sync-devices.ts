// Several devices of one user in one process, for the sync tests: each its own in-memory
// ledger, undo/redo history and sync engine, all over ONE memory remote, on a wall clock the
// test moves (so a seed replays the same timestamps).
import type { ZonedNow } from '@shared/time';
import { LedgerHistory, openLedger, type Ledger } from '@core/ledger/index';
import { SyncEngine } from '@core/sync/engine';
import { Journal } from '@core/sync/journal';
import { MemoryStore, type MemoryRemote } from './memory-remote';
import { NOW } from './ledger-fixtures';

export const PASSPHRASE = 'correct horse';
/** scrypt cheap enough for hundreds of remotes per test file. */
export const TEST_KDF = { name: 'scrypt', N: 1024, r: 8, p: 1 } as const;

/** A wall clock shared by a test's devices; each device may run off it by `skewMs`. */
export class TestClock {
  constructor(public ms = Date.parse('2026-02-17T04:30:00Z')) {}
  tick(ms = 1): void {
    this.ms += ms;
  }
}

export interface Device {
  name: string;
  ledger: Ledger;
  history: LedgerHistory;
  engine: SyncEngine;
  remote: MemoryRemote;
  /** Closes the ledger. */
  close(): void;
}

/**
 * A ledger whose device id is `deviceId` (migration 5 draws a random one), so a seed replays
 * the same tie-breaks between devices: the id is set and a journal built again over it, as
 * the next open of a file would. Its connection is the ledger's, so the app's writes land in it.
 */
function ledgerWithId(deviceId: string, options: { now: () => ZonedNow; syncNow: () => number }): Ledger {
  const ledger = openLedger({ path: ':memory:', ...options });
  ledger.database.prepare("UPDATE sync_state SET value = ? WHERE key = 'device_id'").run(deviceId);
  (ledger as { journal: Journal }).journal = new Journal(ledger.database, { now: options.syncNow });
  return ledger;
}

export function makeDevice(
  store: MemoryStore,
  name: string,
  options: { clock?: TestClock; skewMs?: number; now?: () => ZonedNow; compactAfter?: number; deviceId?: string } = {},
): Device {
  const clock = options.clock;
  const skew = options.skewMs ?? 0;
  const wall = clock ? () => clock.ms + skew : () => Date.now() + skew;
  const now = options.now ?? (() => NOW);
  const ledger = options.deviceId ? ledgerWithId(options.deviceId, { now, syncNow: wall }) : openLedger({ path: ':memory:', now, syncNow: wall });
  ledger.journal.setCapture(true);
  const remote = store.remote(name);
  const engine = new SyncEngine({
    db: ledger.database,
    journal: ledger.journal,
    dbPath: null,
    remote,
    passphrase: PASSPHRASE,
    deviceName: name,
    kdf: TEST_KDF,
    compactAfter: options.compactAfter ?? 3,
    now: wall,
  });
  return { name, ledger, history: new LedgerHistory(ledger, { limit: 1000 }), engine, remote, close: () => ledger.close() };
}

/** Devices A, B, C… over one new memory remote; `ids` fixes their device ids (16 hex digits each). */
export function makeDevices(
  count: number,
  options: { clock?: TestClock; compactAfter?: number; ids?: readonly string[] } = {},
): { store: MemoryStore; devices: Device[] } {
  const store = new MemoryStore();
  const devices = Array.from({ length: count }, (_, i) => makeDevice(store, String.fromCharCode(65 + i), { ...options, deviceId: options.ids?.[i] }));
  return { store, devices };
}

/**
 * Every device syncs, in turn, until a whole pass changes nothing anywhere (nothing pulled,
 * nothing pushed), then one more pass: the state every device should agree on.
 */
export async function quiesce(devices: readonly Device[], maxPasses = 12): Promise<void> {
  for (let pass = 0; pass < maxPasses; pass++) {
    let busy = false;
    for (const d of devices) {
      const r = await d.engine.round();
      if (r.pulled > 0 || r.pushed > 0) busy = true;
    }
    if (!busy) {
      for (const d of devices) await d.engine.round();
      return;
    }
  }
  throw new Error(`no quiescence after ${maxPasses} passes`);
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Everything a user can see of the books, with local ids replaced by names: two devices
 * with the same books give equal values. Orders that fall back to local ids (equal sums,
 * equal sort orders) are normalized.
 */
export function books(ledger: Ledger, months: readonly string[] = []) {
  const db = ledger.database;
  const transactions = db
    .prepare(
      `SELECT t.id, t.amount_fen, t.currency, t.type, c.type AS category_type, c.name AS category, a.name AS account, t.description,
         t.occurred_at, t.occurred_date, t.occurred_ms, t.source, t.created_at, t.updated_at, ta.name AS to_account, t.counterparty,
         t.flow, p.name AS person, t.refund_of, t.reimbursable, t.reimbursed_by
       FROM transactions t JOIN categories c ON c.id = t.category_id JOIN accounts a ON a.id = t.account_id
       LEFT JOIN accounts ta ON ta.id = t.to_account_id LEFT JOIN people p ON p.id = t.person_id ORDER BY t.id`,
    )
    .all();
  const categories = db
    // A preset's created_at is when that install ran its first migration, never edited and so
    // never sent: two devices that both keep it differ there by the seconds between installs.
    .prepare(
      `SELECT type, name, hidden, preset, sort_order, CASE preset WHEN 1 THEN NULL ELSE created_at END AS created_at, sync_id
       FROM categories ORDER BY type, sort_order, name`,
    )
    .all();
  const accounts = ledger
    .accountBalances()
    .accounts.map(({ name, isDefault, count, archived, initialBalanceFen, balanceFen }) => ({
      name,
      isDefault,
      count,
      archived,
      initialBalanceFen,
      balanceFen,
    }))
    .sort(byName);
  const accountRows = db
    .prepare(
      `SELECT name, hidden, sort_order, CASE sync_id WHEN 'a0' THEN NULL ELSE created_at END AS created_at, archived_at, sync_id, kind,
         statement_day, due_day FROM accounts ORDER BY name`,
    )
    .all();
  const people = ledger.people().people.map(({ name, balanceFen, count, archived }) => ({ name, balanceFen, count, archived }));
  const pending = ledger.pendingReimbursements();
  const budgets = db
    .prepare(
      `SELECT b.month, c.type AS category_type, c.name AS category, b.amount_fen, b.sync_id
       FROM budgets b LEFT JOIN categories c ON c.id = b.category_id ORDER BY b.month, b.sync_id`,
    )
    .all();
  const budgetMonths = db.prepare('SELECT month, updated_at FROM budget_months ORDER BY month').all();
  const byCategory = (list: { type: string; category: string }[]) => [...list].sort((a, b) => (a.type + a.category < b.type + b.category ? -1 : 1));
  const figures = months.map((month) => {
    const status = ledger.budgetStatus(month);
    const summary = ledger.monthSummary(month);
    return {
      summary: { ...summary, byCategory: byCategory(summary.byCategory) },
      budget: {
        source: status.source,
        total: status.total && { budgetFen: status.total.budgetFen, spentFen: status.total.spentFen },
        lines: status.lines.map((l) => [l.category, l.budgetFen, l.spentFen]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
      },
    };
  });
  const period = months.length ? ledger.periodStats({ from: `${months[0]}-01`, to: `${months.at(-1)}-31`, granularity: 'month' }) : null;
  const stats = period && { ...period, byCategory: byCategory(period.byCategory) };
  return {
    transactions,
    categories,
    accounts,
    accountRows,
    people,
    pending,
    budgets,
    budgetMonths,
    figures,
    stats,
    totalFen: ledger.accountBalances().totalFen,
  };
}
