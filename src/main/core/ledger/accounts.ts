import type Database from 'better-sqlite3';
import { DEFAULT_ACCOUNT } from '@shared/categories';
import type { AccountBalance, AccountBalances, AccountInfo, AccountKind } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN } from '@shared/money';
import { toZonedIso, type ZonedNow } from '@shared/time';
import { cleanName, LedgerRuleError } from './errors';

type AccountRecord = {
  id: number;
  name: string;
  isDefault: number;
  count: number;
  initialBalanceFen: number;
  flowFen: number;
  archivedAt: string | null;
  kind: AccountKind;
  statementDay: number | null;
  dueDay: number | null;
};

/** A credit card's terms: the days of the month its statement closes and its payment is due. */
export interface CardTerms {
  statementDay: number | null;
  dueDay: number | null;
}

/**
 * The 钱包 the first migration creates: the first row of an empty table, so id 1, and never
 * reused (SQLite only reuses a rowid once the table is empty, and the default account always
 * exists). It is where entries go when nothing else fits: it can be renamed but never
 * archived or deleted, whichever account is the default.
 */
const PRESET_ACCOUNT_ID = 1;

const SELECT_ACCOUNTS = `
  SELECT id, name, is_default AS isDefault, row_count AS count, initial_balance_fen AS initialBalanceFen,
         flow_fen AS flowFen, archived_at AS archivedAt, kind, statement_day AS statementDay, due_day AS dueDay
  FROM accounts`;

function toInfo(r: AccountRecord): AccountInfo {
  return {
    id: r.id,
    name: r.name,
    isDefault: r.isDefault === 1,
    count: r.count,
    archived: r.archivedAt !== null,
    kind: r.kind,
    statementDay: r.statementDay,
    dueDay: r.dueDay,
  };
}

function toBalance(r: AccountRecord): AccountBalance {
  return {
    ...toInfo(r),
    initialBalanceFen: r.initialBalanceFen,
    balanceFen: r.initialBalanceFen + r.flowFen,
    preset: r.id === PRESET_ACCOUNT_ID,
  };
}

/**
 * The user's accounts. A TRANSFER row always takes money OUT of its account_id: into another
 * account (to_account_id, the user's total is unchanged) or to a counterparty outside the
 * user's accounts (the total drops). Money coming in from outside is INCOME. Balances read
 * the running totals the migration-4 triggers keep on each account row (flow_fen, row_count),
 * so they cost one row per account however large the ledger.
 */
export class Accounts {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {}

  list(): AccountInfo[] {
    return this.records().map(toInfo);
  }

  get(id: number): AccountInfo {
    return toInfo(this.record(id));
  }

  balances(): AccountBalances {
    const accounts = this.records().map(toBalance);
    return { accounts, totalFen: accounts.reduce((n, a) => n + a.balanceFen, 0) };
  }

  balance(id: number): AccountBalance {
    return toBalance(this.record(id));
  }

  /** `initialBalanceFen` may be negative (a credit card that starts in debt). */
  add(name: string, initialBalanceFen = 0): AccountInfo {
    const clean = cleanName(name);
    if (!Number.isInteger(initialBalanceFen) || Math.abs(initialBalanceFen) > MAX_AMOUNT_YUAN * 100) {
      throw new LedgerRuleError('invalid_amount', '初始余额无效（最多两位小数，绝对值不超过1亿元）');
    }
    this.assertNameFree(clean);
    const next = this.db.prepare('SELECT COALESCE(MAX(sort_order), -1) + 1 AS n FROM accounts').get() as { n: number };
    const info = this.db
      .prepare('INSERT INTO accounts (name, is_default, sort_order, created_at, initial_balance_fen) VALUES (?, 0, ?, ?, ?)')
      .run(clean, next.n, toZonedIso(this.clock()), initialBalanceFen);
    return this.get(Number(info.lastInsertRowid));
  }

  /**
   * Makes an account a credit card with these terms, or (null) an ordinary account again.
   * Its rows and balance are untouched: a card's balance is a debt because its spending is.
   */
  setCard(id: number, terms: CardTerms | null): AccountInfo {
    this.record(id);
    for (const day of [terms?.statementDay, terms?.dueDay]) {
      if (day !== null && day !== undefined && (!Number.isInteger(day) || day < 1 || day > 31)) {
        throw new LedgerRuleError('invalid_day', '账单日和还款日应为每月1–31日');
      }
    }
    this.db
      .prepare('UPDATE accounts SET kind = ?, statement_day = ?, due_day = ? WHERE id = ?')
      .run(terms ? 'credit' : 'cash', terms?.statementDay ?? null, terms?.dueDay ?? null, id);
    return this.get(id);
  }

  rename(id: number, name: string): AccountInfo {
    const current = this.get(id);
    const clean = cleanName(name);
    if (clean !== current.name) this.assertNameFree(clean);
    this.db.prepare('UPDATE accounts SET name = ? WHERE id = ?').run(clean, id);
    return this.get(id);
  }

  setDefault(id: number): AccountInfo[] {
    const target = this.record(id);
    if (target.archivedAt !== null) throw new LedgerRuleError('account_archived', `「${target.name}」已归档，不能设为默认账户`);
    this.db.transaction(() => {
      this.db.prepare('UPDATE accounts SET is_default = 0').run();
      this.db.prepare('UPDATE accounts SET is_default = 1 WHERE id = ?').run(id);
    })();
    return this.list();
  }

  /** The default account (钱包 unless the user chose another) takes the entries that name none, so it stays open. */
  setArchived(id: number, archived: boolean): AccountBalance {
    const current = this.record(id);
    if (archived && current.id === PRESET_ACCOUNT_ID) throw new LedgerRuleError('account_in_use', `「${current.name}」是预设账户，不能归档`);
    if (archived && current.isDefault === 1) throw new LedgerRuleError('account_in_use', `「${current.name}」是默认账户，不能归档`);
    this.db.prepare('UPDATE accounts SET archived_at = ? WHERE id = ?').run(archived ? (current.archivedAt ?? toZonedIso(this.clock())) : null, id);
    return this.balance(id);
  }

  /** Only an account no row names (on either side of a transfer) can go; others can be archived. */
  delete(id: number): void {
    const current = this.get(id);
    if (id === PRESET_ACCOUNT_ID) throw new LedgerRuleError('account_in_use', `「${current.name}」是预设账户，不能删除`);
    if (current.isDefault) throw new LedgerRuleError('account_in_use', '默认账户不能删除，请先把别的账户设为默认');
    if (current.count > 0) throw new LedgerRuleError('account_in_use', `该账户有 ${current.count} 笔记录，不能删除，可以归档`);
    if (this.db.prepare('SELECT 1 FROM recurring_rules WHERE ? IN (account_id, to_account_id)').get(id)) {
      throw new LedgerRuleError('account_in_use', '有周期记账规则用这个账户，请先修改或删除规则');
    }
    this.db.prepare('DELETE FROM accounts WHERE id = ?').run(id);
  }

  names(): { name: string; isDefault: boolean }[] {
    const rows = this.db.prepare('SELECT name, is_default FROM accounts ORDER BY sort_order, sync_id, id').all() as {
      name: string;
      is_default: number;
    }[];
    return rows.map((r) => ({ name: r.name, isDefault: r.is_default === 1 }));
  }

  /** Name → id of every account (imports land in archived ones too: they are history). */
  ids(): Map<string, number> {
    const rows = this.db.prepare('SELECT id, name FROM accounts').all() as { id: number; name: string }[];
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** Name → id of the accounts new entries may use. */
  openIds(): Map<string, number> {
    const rows = this.db.prepare('SELECT id, name FROM accounts WHERE archived_at IS NULL').all() as { id: number; name: string }[];
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** Ids of the open credit cards. */
  openCards(): number[] {
    return this.db.prepare("SELECT id FROM accounts WHERE kind = 'credit' AND archived_at IS NULL ORDER BY sort_order, id").pluck().all() as number[];
  }

  defaultId(): number {
    const r = this.db.prepare('SELECT id FROM accounts ORDER BY is_default DESC, id LIMIT 1').get() as { id: number } | undefined;
    if (!r) throw new Error(`ledger has no account; expected ${DEFAULT_ACCOUNT}`);
    return r.id;
  }

  private records(): AccountRecord[] {
    return this.db.prepare(`${SELECT_ACCOUNTS} ORDER BY sort_order, sync_id, id`).all() as AccountRecord[];
  }

  private record(id: number): AccountRecord {
    const found = this.db.prepare(`${SELECT_ACCOUNTS} WHERE id = ?`).get(id) as AccountRecord | undefined;
    if (!found) throw new LedgerRuleError('not_found', '这个账户不存在');
    return found;
  }

  private assertNameFree(name: string): void {
    if (this.db.prepare('SELECT 1 FROM accounts WHERE name = ?').get(name)) {
      throw new LedgerRuleError('duplicate_name', `已有名为「${name}」的账户`);
    }
  }
}
