// Saving a 10-item voice card: Ledger.saveBatch as the voice session calls it ({ now, drafts:
// null }) against hand-written code doing the same writes in one transaction, every
// statement prepared once: the default account read once; per item its category looked up by
// name and type, one INSERT of the same 22 columns (the account and sync-journal triggers run
// for both sides alike), and for the two tagged items the tag looked up (made if missing) and
// linked; the kept voice card deleted. Both return the saved rows built from what was written
// (the caller shows them); they are compared without their random ids. Each call's rows are
// deleted again before the next, untimed.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { ParseResult, TransactionRow } from '@shared/domain';
import { toZonedIso, toZonedNow } from '@shared/time';
import type { PairFactory } from './pair';

const NOW = toZonedNow('2026-02-17T12:00:00+08:00');

/** Ten lunches as a card says them, the first two tagged 出差. */
const CARD: ParseResult[] = Array.from({ length: 10 }, (_, i) => ({
  amount: 10 + i,
  type: 'EXPENSE',
  category: '餐饮',
  description: `午饭${i}`,
  date: null,
  account: null,
  confidence: 0.9,
  source: 'llm',
  ...(i < 2 ? { tags: ['出差'] } : {}),
}));

const save: PairFactory = ({ ledger, db }) => {
  const account = db.prepare('SELECT id, name FROM accounts ORDER BY is_default DESC, id LIMIT 1');
  const category = db.prepare('SELECT id, name FROM categories WHERE name = ? AND type = ?');
  const insert = db.prepare(
    `INSERT INTO transactions (id, amount_fen, currency, type, category_id, account_id, description,
       occurred_at, occurred_date, occurred_ms, source, created_at, updated_at, to_account_id, counterparty,
       flow, person_id, refund_of, reimbursable, reimbursed_by, recurrence_key, recorded_by)
     VALUES (?, ?, 'CNY', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, '', NULL, NULL, NULL, 0, NULL, NULL, NULL)`,
  );
  const tagId = db.prepare('SELECT id FROM tags WHERE name = ?').pluck();
  const newTag = db.prepare('INSERT INTO tags (name, created_at) VALUES (?, ?)');
  const link = db.prepare('INSERT OR IGNORE INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)');
  const clearCard = db.prepare('DELETE FROM drafts');
  const write = db.transaction((items: readonly ParseResult[]): TransactionRow[] => {
    const stamp = toZonedIso(NOW);
    const date = stamp.slice(0, 10);
    const into = account.get() as { id: number; name: string };
    const rows: TransactionRow[] = [];
    for (const item of items) {
      const filed = category.get(item.category, item.type) as { id: number; name: string };
      const id = randomUUID();
      const fen = Math.round(item.amount! * 100);
      insert.run(id, fen, item.type, filed.id, into.id, item.description, stamp, date, NOW.epochMs, item.source, stamp, stamp);
      for (const name of item.tags ?? []) link.run(id, (tagId.get(name) as number | undefined) ?? newTag.run(name, stamp).lastInsertRowid);
      const row: TransactionRow = {
        id,
        amountFen: fen,
        currency: 'CNY',
        type: item.type,
        category: filed.name,
        account: into.name,
        description: item.description!,
        occurredAt: stamp,
        date,
        source: item.source,
        createdAt: stamp,
        updatedAt: stamp,
      };
      if (item.tags?.length) row.tags = [...item.tags];
      rows.push(row);
    }
    clearCard.run();
    return rows;
  });
  const last = db.prepare('SELECT MAX(rowid) FROM transactions').pluck().get() as number;
  const undo = db.prepare('DELETE FROM transactions WHERE rowid > ?');
  const withoutIds = (rows: TransactionRow[]) => rows.map(({ id: _, ...rest }) => rest);
  return {
    name: 'ratios.save10',
    project: () => ledger.saveBatch(CARD, { now: NOW, drafts: null }),
    raw: () => write(CARD),
    same: (a, b) => isDeepStrictEqual(withoutIds(a as TransactionRow[]), withoutIds(b as TransactionRow[])),
    reset: () => void undo.run(last),
  };
};

export default save;
