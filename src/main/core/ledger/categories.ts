import type Database from 'better-sqlite3';
import { OTHER_CATEGORY } from '@shared/categories';
import { isTransactionType, type TransactionType } from '@shared/domain';
import type { CategoryInfo, RecentCategory } from '@shared/ipc/ledger';
import { toZonedIso, type ZonedNow } from '@shared/time';
import { matchCategory, visibleCategory, type ShownCandidate } from '../categories/index';
import { cleanName, LedgerRuleError } from './errors';

/**
 * The user's categories, per transaction type: presets can be hidden, custom ones renamed,
 * reordered and deleted, and every save files its row under one of them.
 */
export class Categories {
  /** Read by every save: prepared once. */
  private readonly candidateRows: Database.Statement;
  private readonly byName: Database.Statement;
  private readonly byId: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => ZonedNow,
  ) {
    this.candidateRows = db.prepare('SELECT id, name, type, sort_order AS sortOrder, hidden, parent_id AS parentId FROM categories');
    // Two lookups rather than one LEFT JOIN of the parent: the join costs five times as much a call (measured).
    this.byName = db.prepare('SELECT id, name, hidden, parent_id AS parentId FROM categories WHERE name = ? AND type = ?');
    this.byId = db.prepare('SELECT name, hidden FROM categories WHERE id = ?');
  }

  list(): CategoryInfo[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.name, c.type, c.hidden, c.preset, c.sort_order AS sortOrder,
           (SELECT COUNT(*) FROM transactions t WHERE t.category_id = c.id) AS count, c.parent_id AS parentId
         FROM categories c ORDER BY c.type, c.sort_order, c.sync_id, c.id`,
      )
      .all() as (Omit<CategoryInfo, 'hidden' | 'preset'> & { hidden: number; preset: number })[];
    return rows.map((r) => ({ ...r, hidden: r.hidden === 1, preset: r.preset === 1 }));
  }

  /** The id of the category of this name and type, if there is one. */
  idOf(name: string, type: TransactionType): number | undefined {
    return this.db.prepare('SELECT id FROM categories WHERE name = ? AND type = ?').pluck().get(name, type) as number | undefined;
  }

  get(id: number): CategoryInfo {
    const found = this.list().find((c) => c.id === id);
    if (!found) throw new LedgerRuleError('not_found', '这个分类不存在');
    return found;
  }

  /** `parentId`: a top-level category of the same type, which the new one goes under. */
  add(name: string, type: TransactionType, parentId: number | null = null): CategoryInfo {
    const clean = cleanName(name);
    if (!isTransactionType(type)) throw new LedgerRuleError('invalid_category', '分类类型无效');
    this.assertNameFree(clean, type);
    if (parentId !== null) this.assertParent(this.get(parentId), { name: clean, type });
    const next = this.db.prepare('SELECT COALESCE(MAX(sort_order), -1) + 1 AS n FROM categories WHERE type = ?').get(type) as { n: number };
    const info = this.db
      .prepare('INSERT INTO categories (name, type, preset, hidden, sort_order, created_at, parent_id) VALUES (?, ?, 0, 0, ?, ?, ?)')
      .run(clean, type, next.n, toZonedIso(this.clock()), parentId);
    return this.get(Number(info.lastInsertRowid));
  }

  /** Moves a category under a top-level one of its type, or (null) to the top level. */
  setParent(id: number, parentId: number | null): CategoryInfo {
    const current = this.get(id);
    if (parentId !== null) {
      if (parentId === id) throw new LedgerRuleError('invalid_category', '分类不能放在自己下面');
      this.assertParent(this.get(parentId), current);
      if (this.childCount(id) > 0) throw new LedgerRuleError('invalid_category', `「${current.name}」下有子分类，不能再放到别的分类下面（最多两级）`);
    }
    this.db.prepare('UPDATE categories SET parent_id = ? WHERE id = ?').run(parentId, id);
    return this.get(id);
  }

  /** The id of each category's parent, for the ones that have one. */
  parents(): Map<number, number> {
    const rows = this.db.prepare('SELECT id, parent_id FROM categories WHERE parent_id IS NOT NULL').raw(true).all() as [number, number][];
    return new Map(rows);
  }

  private childCount(id: number): number {
    return this.db.prepare('SELECT COUNT(*) FROM categories WHERE parent_id = ?').pluck().get(id) as number;
  }

  private assertParent(parent: CategoryInfo, child: { name: string; type: TransactionType }): void {
    if (parent.parentId !== null) {
      throw new LedgerRuleError('invalid_category', `「${parent.name}」本身是子分类，不能再有子分类（最多两级）`);
    }
    if (parent.type !== child.type) {
      throw new LedgerRuleError('invalid_category', `「${child.name}」与「${parent.name}」不是同一类型的分类`);
    }
  }

  rename(id: number, name: string): CategoryInfo {
    const current = this.get(id);
    const clean = cleanName(name);
    if (clean !== current.name) this.assertNameFree(clean, current.type);
    this.db.prepare('UPDATE categories SET name = ? WHERE id = ?').run(clean, id);
    return this.get(id);
  }

  setHidden(id: number, hidden: boolean): CategoryInfo {
    const current = this.get(id);
    if (hidden && current.name === OTHER_CATEGORY) {
      throw new LedgerRuleError('invalid_category', '「其他」用来接住无法归类的记录，不能隐藏');
    }
    this.db.prepare('UPDATE categories SET hidden = ? WHERE id = ?').run(hidden ? 1 : 0, id);
    return this.get(id);
  }

  /** `ids` must be every category of `type`, in the new order. */
  reorder(type: TransactionType, ids: readonly number[]): CategoryInfo[] {
    const existing = this.list()
      .filter((c) => c.type === type)
      .map((c) => c.id);
    if (ids.length !== existing.length || new Set(ids).size !== ids.length || !ids.every((i) => existing.includes(i))) {
      throw new LedgerRuleError('invalid_category', '排序列表与现有分类不一致，请刷新后重试');
    }
    const update = this.db.prepare('UPDATE categories SET sort_order = ? WHERE id = ?');
    this.db.transaction(() => ids.forEach((id, i) => update.run(i, id)))();
    return this.list().filter((c) => c.type === type);
  }

  /**
   * Only custom categories can go (presets can be hidden). One that holds transactions goes
   * only with `moveTo`, a category of the same type the user picked: the rows move there and
   * the category is deleted in one transaction. Returns how many rows moved.
   */
  delete(id: number, moveTo?: number): number {
    const current = this.get(id);
    if (current.preset) throw new LedgerRuleError('category_in_use', '预设分类不能删除，可以隐藏');
    // Refused rather than moving the children up: where each should go is the user's call,
    // and moving them one by one first says what happens to them.
    const children = this.childCount(id);
    if (children > 0) {
      throw new LedgerRuleError('category_in_use', `「${current.name}」下还有${children}个子分类，请先把它们移走或删除`);
    }
    if (current.count > 0 && moveTo === undefined) {
      throw new LedgerRuleError('category_in_use', `「${current.name}」下还有${current.count}笔记录，请先选择把它们移到哪个分类`);
    }
    const rules = this.db.prepare('SELECT COUNT(*) FROM recurring_rules WHERE category_id = ?').pluck().get(id) as number;
    if (rules > 0 && moveTo === undefined) {
      throw new LedgerRuleError('category_in_use', `有${rules}条周期记账规则用「${current.name}」，请先选择把它们移到哪个分类`);
    }
    if (moveTo !== undefined) {
      const target = this.get(moveTo);
      if (target.id === current.id) throw new LedgerRuleError('invalid_category', '不能把记录移到要删除的分类本身');
      if (target.type !== current.type) throw new LedgerRuleError('invalid_category', `「${target.name}」与「${current.name}」不是同一类型的分类`);
    }
    return this.db.transaction(() => {
      const moved =
        moveTo === undefined
          ? 0
          : this.db.prepare('UPDATE transactions SET category_id = ?, updated_at = ? WHERE category_id = ?').run(moveTo, toZonedIso(this.clock()), id)
              .changes;
      // The rules go where their rows went: what they make next belongs with what they made.
      if (moveTo !== undefined) {
        this.db.prepare('UPDATE recurring_rules SET category_id = ?, updated_at = ? WHERE category_id = ?').run(moveTo, toZonedIso(this.clock()), id);
      }
      this.db.prepare('DELETE FROM categories WHERE id = ?').run(id);
      return moved;
    })();
  }

  names(type?: TransactionType): { name: string; type: TransactionType; hidden: boolean; preset: boolean }[] {
    const rows = this.db
      .prepare(`SELECT name, type, hidden, preset FROM categories ${type ? 'WHERE type = ?' : ''} ORDER BY type, sort_order, sync_id, id`)
      .all(...(type ? [type] : [])) as { name: string; type: TransactionType; hidden: number; preset: number }[];
    return rows.map((r) => ({ name: r.name, type: r.type, hidden: r.hidden === 1, preset: r.preset === 1 }));
  }

  /**
   * The categories of `type` most recently entered (by entry order, not by day), newest
   * first, hidden ones left out: the first cells of the form's grid. Reads at most the
   * last 2 000 rows of the type, so a ledger of millions answers as fast as a small one.
   */
  recent(type: TransactionType, limit = 3): RecentCategory[] {
    const names = new Map(
      (this.db.prepare('SELECT id, name FROM categories WHERE type = ? AND hidden = 0').all(type) as RecentCategory[]).map((c) => [c.id, c.name]),
    );
    const recent: RecentCategory[] = [];
    const rows = this.db
      .prepare('SELECT category_id FROM transactions WHERE +type = ? ORDER BY rowid DESC LIMIT 2000')
      .pluck()
      .iterate(type) as IterableIterator<number>;
    for (const categoryId of rows) {
      const name = names.get(categoryId);
      if (name === undefined || recent.some((c) => c.id === categoryId)) continue;
      recent.push({ id: categoryId, name });
      if (recent.length >= limit) break;
    }
    return recent;
  }

  candidates(): ShownCandidate[] {
    type Row = Omit<ShownCandidate, 'hidden'> & { hidden: number };
    const rows = this.candidateRows.all() as Row[];
    // Not { ...r }: a spread per row made this read cost as much as a save's ten inserts (measured).
    return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, sortOrder: r.sortOrder, hidden: r.hidden === 1, parentId: r.parentId }));
  }

  /** The category of exactly this name and type when the pickers show it (neither it nor its parent hidden), with its parent's name. */
  shown(name: string, type: TransactionType): { id: number; name: string; parent: string | null } | undefined {
    const c = this.byName.get(name, type) as { id: number; name: string; hidden: number; parentId: number | null } | undefined;
    if (!c || c.hidden) return undefined;
    const parent = c.parentId === null ? undefined : (this.byId.get(c.parentId) as { name: string; hidden: number } | undefined);
    if (parent?.hidden) return undefined;
    return { id: c.id, name: c.name, parent: parent?.name ?? null };
  }

  /**
   * The category a spoken or typed-in item (not the 记一笔 form, which names its own) is filed
   * under: the nearest of the user's names, moved out of a hidden one (`words`: the item's).
   */
  place(name: string | null | undefined, type: TransactionType, words = ''): ShownCandidate | undefined {
    const candidates = this.candidates();
    const matched = matchCategory(name, type, candidates);
    return matched && visibleCategory(matched, candidates, words);
  }

  private assertNameFree(name: string, type: TransactionType): void {
    if (this.db.prepare('SELECT 1 FROM categories WHERE name = ? AND type = ?').get(name, type)) {
      throw new LedgerRuleError('duplicate_name', `已有名为「${name}」的分类`);
    }
  }
}
