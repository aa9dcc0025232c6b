import type Database from 'better-sqlite3';
import type { TagInfo } from '@shared/ipc/ledger';
import { toZonedIso, type ZonedNow } from '@shared/time';
import { LedgerRuleError } from './errors';

/** Joins a row's tags in our CSV; refused inside a tag, so the cell splits back into the same tags. */
export const TAG_SEPARATOR = ';';
export const MAX_TAG_LENGTH = 20;
export const MAX_TAGS_PER_ROW = 20;

/**
 * A row's tags as given (typed, spoken, imported): trimmed, a leading # dropped, empty ones
 * skipped, duplicates collapsed to the first; order kept. Refuses what the IPC schema would.
 */
export function cleanTags(names: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const raw of names ?? []) {
    const name = String(raw)
      .trim()
      .replace(/^[#＃]+/, '')
      .trim();
    if (!name || out.includes(name)) continue;
    if (name.length > MAX_TAG_LENGTH) throw new LedgerRuleError('invalid_tag', `标签最多${MAX_TAG_LENGTH}个字（「${name}」）`);
    if (name.includes(TAG_SEPARATOR)) throw new LedgerRuleError('invalid_tag', `标签不能包含「${TAG_SEPARATOR}」（「${name}」）`);
    out.push(name);
  }
  if (out.length > MAX_TAGS_PER_ROW) throw new LedgerRuleError('invalid_tag', `一笔最多${MAX_TAGS_PER_ROW}个标签`);
  return out;
}

/**
 * Tags and the rows carrying them. A tag exists from its first use; renaming onto another
 * tag's name merges the two; deleting one takes it off its rows, which stay. Callers run the
 * row writes and these in one SQLite transaction.
 */
export class Tags {
  private readonly idOf: Database.Statement;
  private readonly insertTag: Database.Statement;
  private readonly link: Database.Statement;
  private readonly namesOf: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {
    this.idOf = db.prepare('SELECT id FROM tags WHERE name = ?').pluck();
    this.insertTag = db.prepare('INSERT INTO tags (name, created_at) VALUES (?, ?)');
    this.link = db.prepare('INSERT OR IGNORE INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)');
    this.namesOf = db
      .prepare('SELECT g.name FROM transaction_tags tt JOIN tags g ON g.id = tt.tag_id WHERE tt.transaction_id = ? ORDER BY tt.rowid')
      .pluck();
  }

  /** The tag of this name, made on first use. */
  ensure(name: string): number {
    const id = this.idOf.get(name) as number | undefined;
    if (id !== undefined) return id;
    return Number(this.insertTag.run(name, toZonedIso(this.clock())).lastInsertRowid);
  }

  /** Adds tags (already clean) to a new row, in order. */
  attach(transactionId: string, names: readonly string[]): void {
    for (const name of names) this.link.run(transactionId, this.ensure(name));
  }

  /**
   * Makes a row's tags exactly `names` (already clean): links that stay are kept (with their
   * place and their sync history), the others go, new ones come after them.
   */
  replace(transactionId: string, names: readonly string[]): void {
    const current = this.of(transactionId);
    if (current.length === names.length && current.every((n, i) => n === names[i])) return;
    const unlink = this.db.prepare('DELETE FROM transaction_tags WHERE transaction_id = ? AND tag_id = (SELECT id FROM tags WHERE name = ?)');
    for (const name of current) if (!names.includes(name)) unlink.run(transactionId, name);
    this.attach(
      transactionId,
      names.filter((n) => !current.includes(n)),
    );
  }

  /** A row's tags in the order given. */
  of(transactionId: string): string[] {
    return this.namesOf.all(transactionId) as string[];
  }

  /** Every tag with its rows, most used first (ties: the older tag first). */
  list(): TagInfo[] {
    return this.db
      .prepare(
        `SELECT g.id, g.name, (SELECT COUNT(*) FROM transaction_tags tt WHERE tt.tag_id = g.id) AS count
         FROM tags g ORDER BY count DESC, g.id`,
      )
      .all() as TagInfo[];
  }

  get(id: number): TagInfo {
    const found = this.db
      .prepare('SELECT g.id, g.name, (SELECT COUNT(*) FROM transaction_tags tt WHERE tt.tag_id = g.id) AS count FROM tags g WHERE g.id = ?')
      .get(id) as TagInfo | undefined;
    if (!found) throw new LedgerRuleError('not_found', '这个标签不存在');
    return found;
  }

  /**
   * Renames a tag. Onto the name of another tag the two merge: its rows carry that tag (once)
   * and this one goes — the links move as new links, so a device that syncs sees the same.
   */
  rename(id: number, name: string): TagInfo {
    const current = this.get(id);
    const [clean] = cleanTags([name]);
    if (clean === undefined) throw new LedgerRuleError('invalid_tag', '标签不能为空');
    if (clean === current.name) return current;
    const other = this.idOf.get(clean) as number | undefined;
    return this.db.transaction(() => {
      if (other === undefined) {
        this.db.prepare('UPDATE tags SET name = ? WHERE id = ?').run(clean, id);
        return this.get(id);
      }
      const rows = this.db.prepare('SELECT transaction_id FROM transaction_tags WHERE tag_id = ? ORDER BY rowid').pluck().all(id) as string[];
      for (const row of rows) this.link.run(row, other);
      this.db.prepare('DELETE FROM tags WHERE id = ?').run(id);
      return this.get(other);
    })();
  }

  /** Takes the tag off every row (the rows stay); returns how many rows carried it. */
  delete(id: number): number {
    const current = this.get(id);
    this.db.prepare('DELETE FROM tags WHERE id = ?').run(id);
    return current.count;
  }
}
