import type Database from 'better-sqlite3';
import type { TransactionType } from '@shared/domain';
import type { MerchantRule } from '@shared/ipc/ledger';
import { toZonedIso, type ZonedNow } from '@shared/time';
import { merchantKey } from './bills/table';
import { LedgerRuleError } from './errors';

/** Merchants in the order of a Chinese index (拼音), as 设置 lists them. */
const BY_MERCHANT = new Intl.Collator('zh-CN');

/**
 * The merchant memory of bill imports (migration 9; local to this device, never synced). An
 * imported row keeps its merchant; when the user moves such a row to another category, the
 * merchant's later rows of that type follow (a rule per merchant and type, the latest choice
 * winning). A rule goes with its category. Callers run these writes inside their own SQLite
 * transaction (the import's, the edit's).
 */
export class Merchants {
  private readonly insertMerchant: Database.Statement;
  private readonly merchantOf: Database.Statement;
  private readonly upsertRule: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {
    this.insertMerchant = db.prepare('INSERT OR REPLACE INTO imported_merchants (transaction_id, merchant) VALUES (?, ?)');
    this.merchantOf = db.prepare('SELECT merchant FROM imported_merchants WHERE transaction_id = ?').pluck();
    this.upsertRule = db.prepare(
      `INSERT INTO merchant_categories (merchant, type, category_id, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (merchant, type) DO UPDATE SET category_id = excluded.category_id, updated_at = excluded.updated_at`,
    );
  }

  /**
   * Keeps the merchant of a row just imported, as the bill wrote it (the import looks rules up
   * by merchantKey of that same text); a blank merchant keeps nothing.
   */
  remember(transactionId: string, merchant: string | undefined): void {
    if (merchant && merchant.trim() !== '') this.insertMerchant.run(transactionId, merchant);
  }

  /**
   * After an edit that put a row into `categoryId`: when the row came from a bill with a
   * merchant, that merchant's rows of `type` go there from now on. A row typed or saved by hand
   * has no merchant and teaches nothing. Undoing the edit leaves the rule: the user sees it in
   * 设置 and deletes it there, and the next edit of a row of that merchant overwrites it.
   */
  learn(transactionId: string, type: TransactionType, categoryId: number): void {
    const merchant = this.merchantOf.get(transactionId) as string | undefined;
    if (merchant !== undefined) this.choose(merchant, type, categoryId);
  }

  /** The user's own choice of category for a merchant's rows of `type`. */
  choose(merchant: string, type: TransactionType, categoryId: number): void {
    this.upsertRule.run(merchant, type, categoryId, toZonedIso(this.clock()));
  }

  /** The category name of every rule, keyed by merchantKey(type, merchant). */
  categories(): Map<string, string> {
    const rows = this.db.prepare('SELECT m.merchant, m.type, c.name FROM merchant_categories m JOIN categories c ON c.id = m.category_id').all() as {
      merchant: string;
      type: TransactionType;
      name: string;
    }[];
    return new Map(rows.map((r) => [merchantKey(r.type, r.merchant), r.name]));
  }

  /** Every rule, by merchant (then type), for 设置. */
  rules(): MerchantRule[] {
    const rows = this.db
      .prepare(
        `SELECT m.merchant, m.type, c.name AS category, m.updated_at AS updatedAt
         FROM merchant_categories m JOIN categories c ON c.id = m.category_id`,
      )
      .all() as MerchantRule[];
    return rows.sort((a, b) => BY_MERCHANT.compare(a.merchant, b.merchant) || a.type.localeCompare(b.type));
  }

  deleteRule(merchant: string, type: TransactionType): void {
    const info = this.db.prepare('DELETE FROM merchant_categories WHERE merchant = ? AND type = ?').run(merchant, type);
    if (info.changes === 0) throw new LedgerRuleError('not_found', `「${merchant}」的分类规则不存在或已被删除`);
  }
}
