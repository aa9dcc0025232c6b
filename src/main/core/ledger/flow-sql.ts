// What one transactions row does to the running totals of accounts and people, as SQL over a
// row alias. The triggers of migration 6, the sync engine's bulk recompute and the tests all
// build from these, so the rules live in one place. Changing them means a new migration that
// recreates the triggers: a migration's text is frozen once released.

/** Money into (+) or out of (−) the row's account_id. A write-off moves no account's money. */
export function accountDelta(r: string): string {
  return `CASE WHEN ${r}.flow = 'writeoff' THEN 0
    WHEN ${r}.type = 'INCOME' OR ${r}.flow IN ('borrow', 'collect', 'refund') THEN ${r}.amount_fen
    ELSE -${r}.amount_fen END`;
}

/** Money into the row's to_account_id (a transfer between the user's own accounts). */
export function toAccountDelta(r: string): string {
  return `CASE ${r}.type WHEN 'TRANSFER' THEN ${r}.amount_fen ELSE 0 END`;
}

/** The change in what person_id owes the user: lending and repaying raise it, borrowing, collecting and writing off lower it. */
export function personDelta(r: string): string {
  return `CASE ${r}.flow WHEN 'lend' THEN ${r}.amount_fen WHEN 'repay' THEN ${r}.amount_fen
    WHEN 'borrow' THEN -${r}.amount_fen WHEN 'collect' THEN -${r}.amount_fen WHEN 'writeoff' THEN -${r}.amount_fen ELSE 0 END`;
}

function apply(r: string, sign: '+' | '-'): string {
  const n = sign === '+' ? '+ 1' : '- 1';
  return `
        UPDATE accounts SET flow_fen = flow_fen ${sign} (${accountDelta(r)}), row_count = row_count ${n} WHERE id = ${r}.account_id;
        UPDATE accounts SET flow_fen = flow_fen ${sign} (${toAccountDelta(r)}), row_count = row_count ${n} WHERE id = ${r}.to_account_id;
        UPDATE people SET balance_fen = balance_fen ${sign} (${personDelta(r)}), row_count = row_count ${n} WHERE id = ${r}.person_id;`;
}

/** The three triggers that keep accounts' and people's running totals in the same transaction as every write. */
export const flowTriggers = `
      CREATE TRIGGER transactions_flow_insert AFTER INSERT ON transactions BEGIN${apply('NEW', '+')}
      END;
      CREATE TRIGGER transactions_flow_delete AFTER DELETE ON transactions BEGIN${apply('OLD', '-')}
      END;
      CREATE TRIGGER transactions_flow_update AFTER UPDATE OF amount_fen, type, account_id, to_account_id, flow, person_id ON transactions BEGIN${apply('OLD', '-')}${apply('NEW', '+')}
      END;`;

/**
 * The same totals from every row in one sequential pass (a device loading a snapshot sets the
 * insert trigger aside and runs this once).
 */
export const recomputeTotals = `
  WITH per AS MATERIALIZED (
    SELECT id, SUM(fen) AS fen, SUM(n) AS n FROM (
      SELECT account_id AS id, SUM(${accountDelta('t')}) AS fen, COUNT(*) AS n
        FROM transactions t NOT INDEXED GROUP BY account_id
      UNION ALL
      SELECT to_account_id, SUM(${toAccountDelta('t')}), COUNT(*)
        FROM transactions t NOT INDEXED WHERE to_account_id IS NOT NULL GROUP BY to_account_id
    ) GROUP BY id
  )
  UPDATE accounts SET flow_fen = COALESCE((SELECT fen FROM per WHERE per.id = accounts.id), 0),
                      row_count = COALESCE((SELECT n FROM per WHERE per.id = accounts.id), 0);
  WITH per AS MATERIALIZED (
    SELECT person_id AS id, SUM(${personDelta('t')}) AS fen, COUNT(*) AS n
      FROM transactions t NOT INDEXED WHERE person_id IS NOT NULL GROUP BY person_id
  )
  UPDATE people SET balance_fen = COALESCE((SELECT fen FROM per WHERE per.id = people.id), 0),
                    row_count = COALESCE((SELECT n FROM per WHERE per.id = people.id), 0);`;
