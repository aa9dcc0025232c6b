// The list filter as SQL over `transactions t`: one translation, so the list, its count, its
// day headers, the export and the spoken totals all select the same rows.
import type { LedgerFilter } from '@shared/ipc/ledger';

export function filterClause(query: LedgerFilter): { where: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (query.from) {
    clauses.push('t.occurred_date >= ?');
    params.push(query.from);
  }
  if (query.to) {
    clauses.push('t.occurred_date <= ?');
    params.push(query.to);
  }
  if (query.type) {
    // Unary + keeps the planner off the (type, …) statistics index: with a type filter it
    // would otherwise walk every row of that type and sort them instead of using the day order.
    clauses.push('+t.type = ?');
    params.push(query.type);
  }
  if (query.category) {
    // A parent stands for its sub-categories too: 餐饮 selects 早餐's rows.
    clauses.push('t.category_id IN (SELECT id FROM categories WHERE name = ? OR parent_id IN (SELECT id FROM categories WHERE name = ?))');
    params.push(query.category, query.category);
  }
  if (query.tag) {
    clauses.push(TAG_CLAUSE);
    params.push(query.tag);
  }
  if (query.account) {
    clauses.push('t.account_id IN (SELECT id FROM accounts WHERE name = ?)');
    params.push(query.account);
  }
  if (query.person) {
    clauses.push('t.person_id IN (SELECT id FROM people WHERE name = ?)');
    params.push(query.person);
  }
  if (query.minFen !== undefined) {
    clauses.push('t.amount_fen >= ?');
    params.push(query.minFen);
  }
  if (query.maxFen !== undefined) {
    clauses.push('t.amount_fen <= ?');
    params.push(query.maxFen);
  }
  if (query.text) {
    const pattern = likePattern(query.text);
    clauses.push(`(t.description LIKE ? ESCAPE '\\' OR t.category_id IN (SELECT id FROM categories WHERE name LIKE ? ESCAPE '\\'))`);
    params.push(pattern, pattern);
  }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** Rows carrying the tag named by the one parameter: a read of that tag's links. */
export const TAG_CLAUSE = 't.id IN (SELECT tt.transaction_id FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE g.name = ?)';

export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
