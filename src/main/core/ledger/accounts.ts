import type Database from 'better-sqlite3';
import { DEFAULT_ACCOUNT } from '@shared/categories';
import type { AccountBalance, AccountBalances, AccountInfo, AccountKind, CardBill, CardStatement } from '@shared/ipc/ledger';
import { MAX_AMOUNT_YUAN } from '@shared/money';
import { addDays, localDate, toZonedIso, type ZonedNow } from '@shared/time';
import { billPeriod, daysUntil, dueDateAfter } from './card-statement';
import { cleanName, LedgerRuleError } from './errors';
import { accountDelta, toAccountDelta } from './flow-sql';

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
  creditLimitFen: number | null;
  createdAt: string;
};

/**
 * A credit card's terms: the days of the month its statement closes and its payment is due,
 * and its 额度 (undefined: keep the one it has; null: none).
 */
export interface CardTerms {
  statementDay: number | null;
  dueDay: number | null;
  creditLimitFen?: number | null;
}

/** The day bounds of "every row": sums over a side left open use these. */
const FIRST_DAY = '0000-00-00';
const LAST_DAY = '9999-99-99';

/**
 * The 钱包 the first migration creates: the first row of an empty table, so id 1, and never
 * reused (SQLite only reuses a rowid once the table is empty, and the default account always
 * exists). It is where entries go when nothing else fits: it can be renamed but never
 * archived or deleted, whichever account is the default.
 */
const PRESET_ACCOUNT_ID = 1;

const SELECT_ACCOUNTS = `
  SELECT id, name, is_default AS isDefault, row_count AS count, initial_balance_fen AS initialBalanceFen,
         flow_fen AS flowFen, archived_at AS archivedAt, kind, statement_day AS statementDay, due_day AS dueDay,
         credit_limit_fen AS creditLimitFen, created_at AS createdAt
  FROM accounts`;

/**
 * Money out of and into one account over a span of days: each row's effect on the account
 * (./flow-sql.ts, the same rules as the running balance) split by its sign.
 */
const FLOWS = `
  SELECT COALESCE(SUM(CASE WHEN d < 0 THEN -d ELSE 0 END), 0) AS outFen,
         COALESCE(SUM(CASE WHEN d > 0 THEN d ELSE 0 END), 0) AS inFen
  FROM (
    SELECT ${accountDelta('t')} AS d FROM transactions t
      WHERE t.account_id = @id AND t.occurred_date BETWEEN @from AND @to
    UNION ALL
    SELECT ${toAccountDelta('t')} FROM transactions t
      WHERE t.to_account_id = @id AND t.occurred_date BETWEEN @from AND @to
  )`;

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
    creditLimitFen: r.creditLimitFen,
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
  /** Read by every save: prepared once. */
  private readonly openRows: Database.Statement;
  private readonly defaultRow: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {
    this.openRows = db.prepare('SELECT id, name FROM accounts WHERE archived_at IS NULL');
    this.defaultRow = db.prepare('SELECT id, name FROM accounts ORDER BY is_default DESC, id LIMIT 1');
  }

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

  /**
   * `initialBalanceFen` may be negative (a credit card that starts in debt); `card` makes the
   * new account a credit card with these terms, in the same transaction.
   */
  add(name: string, initialBalanceFen = 0, card?: CardTerms): AccountInfo {
    const clean = cleanName(name);
    if (!Number.isInteger(initialBalanceFen) || Math.abs(initialBalanceFen) > MAX_AMOUNT_YUAN * 100) {
      throw new LedgerRuleError('invalid_amount', '初始余额无效（最多两位小数，绝对值不超过1亿元）');
    }
    if (card) checkTerms(card);
    this.assertNameFree(clean);
    return this.db.transaction(() => {
      const next = this.db.prepare('SELECT COALESCE(MAX(sort_order), -1) + 1 AS n FROM accounts').get() as { n: number };
      const info = this.db
        .prepare('INSERT INTO accounts (name, is_default, sort_order, created_at, initial_balance_fen) VALUES (?, 0, ?, ?, ?)')
        .run(clean, next.n, toZonedIso(this.clock()), initialBalanceFen);
      const id = Number(info.lastInsertRowid);
      return card ? this.setCard(id, card) : this.get(id);
    })();
  }

  /**
   * Makes an account a credit card with these terms, or (null) an ordinary account again
   * (its 额度 goes too). Its rows and balance are untouched: a card's balance is a debt
   * because its spending is.
   */
  setCard(id: number, terms: CardTerms | null): AccountInfo {
    const current = this.record(id);
    if (terms) checkTerms(terms);
    const limit = terms ? (terms.creditLimitFen === undefined ? current.creditLimitFen : terms.creditLimitFen) : null;
    this.db
      .prepare('UPDATE accounts SET kind = ?, statement_day = ?, due_day = ?, credit_limit_fen = ? WHERE id = ?')
      .run(terms ? 'credit' : 'cash', terms?.statementDay ?? null, terms?.dueDay ?? null, limit, id);
    return this.get(id);
  }

  /** Every credit card's 本期账单, due date and 可用额度 on the ledger's today, in the accounts' order. */
  cardStatements(): CardStatement[] {
    return this.records()
      .filter((r) => r.kind === 'credit')
      .map((r) => this.statementOf(r));
  }

  cardStatement(id: number): CardStatement {
    const r = this.record(id);
    if (r.kind !== 'credit') throw new LedgerRuleError('not_a_card', `「${r.name}」不是信用卡`);
    return this.statementOf(r);
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
    const rows = this.openRows.all() as { id: number; name: string }[];
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** Ids of the open credit cards. */
  openCards(): number[] {
    return this.db.prepare("SELECT id FROM accounts WHERE kind = 'credit' AND archived_at IS NULL ORDER BY sort_order, id").pluck().all() as number[];
  }

  defaultId(): number {
    return this.defaultAccount().id;
  }

  /** The account entries that name none go to. */
  defaultAccount(): { id: number; name: string } {
    const found = this.defaultRow.get() as { id: number; name: string } | undefined;
    if (!found) throw new Error(`ledger has no account; expected ${DEFAULT_ACCOUNT}`);
    return found;
  }

  private statementOf(r: AccountRecord): CardStatement {
    const owedFen = Math.max(0, -(r.initialBalanceFen + r.flowFen));
    return {
      accountId: r.id,
      owedFen,
      availableFen: r.creditLimitFen === null ? null : r.creditLimitFen - owedFen,
      bill: r.statementDay === null ? null : this.bill(r, r.statementDay),
    };
  }

  /**
   * The bill as the bank would print it: what the card owed at the previous statement date,
   * plus the period's spending, minus its repayments and refunds. A debt left unpaid is billed
   * again (the bank carries it), and a repayment of the previous bill made inside this period
   * pays that bill, not this one's spending.
   */
  private bill(r: AccountRecord, statementDay: number): CardBill {
    const today = localDate(this.clock());
    const period = billPeriod(today, statementDay, this.firstActivity(r));
    const flows = this.db.prepare(FLOWS);
    const span = (from: string, to: string) => flows.get({ id: r.id, from, to }) as { outFen: number; inFen: number };
    const before = span(FIRST_DAY, addDays(period.from, -1));
    const carriedFen = -(r.initialBalanceFen + before.inFen - before.outFen);
    const within = span(period.from, period.to);
    const billFen = carriedFen + within.outFen - within.inFen;
    // After a closed period: repayments count against the bill, spending waits for the next one.
    const after = period.closed ? span(addDays(period.to, 1), LAST_DAY) : { outFen: 0, inFen: 0 };
    const dueDate = r.dueDay === null ? null : dueDateAfter(period.to, r.dueDay);
    return {
      from: period.from,
      to: period.to,
      closed: period.closed,
      billFen,
      carriedFen,
      spentFen: within.outFen,
      repaidFen: within.inFen,
      leftFen: Math.max(0, billFen - after.inFen),
      unbilledFen: after.outFen,
      dueDate,
      daysLeft: dueDate === null ? null : daysUntil(today, dueDate),
    };
  }

  /** The card's first day: its creation, or its earliest row when one was dated before that. */
  private firstActivity(r: AccountRecord): string {
    const created = r.createdAt.slice(0, 10);
    const first = this.db
      .prepare(
        `SELECT MIN(d) FROM (SELECT MIN(occurred_date) AS d FROM transactions WHERE account_id = ?
                            UNION ALL SELECT MIN(occurred_date) FROM transactions WHERE to_account_id = ?)`,
      )
      .pluck()
      .get(r.id, r.id) as string | null;
    return first !== null && first < created ? first : created;
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

function checkTerms(terms: CardTerms): void {
  for (const day of [terms.statementDay, terms.dueDay]) {
    if (day !== null && (!Number.isInteger(day) || day < 1 || day > 31)) {
      throw new LedgerRuleError('invalid_day', '账单日和还款日应为每月1–31日');
    }
  }
  const limit = terms.creditLimitFen;
  if (limit !== undefined && limit !== null && (!Number.isInteger(limit) || limit < 0 || limit > MAX_AMOUNT_YUAN * 100)) {
    throw new LedgerRuleError('invalid_amount', '额度应为0到1亿元之间的金额，最多两位小数');
  }
}
