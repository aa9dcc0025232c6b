import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger } from '@core/ledger/index';
import { books, makeDevices, quiesce, TestClock, type Device } from '../../../../test/support/sync-devices';
import { item } from '../../../../test/support/ledger-fixtures';

// Tags and sub-categories on two synced devices: a tag put on a row on one device shows on
// the other and a tag taken off on the other goes on the first; a sub-category arrives with
// its parent; concurrent moves that would break the two-level tree end the same everywhere.

let open: Device[] = [];
afterEach(() => {
  for (const d of open) d.close();
  open = [];
});

const tagsOf = (l: Ledger) =>
  l
    .list({ limit: 100 })
    .rows.map((r) => [r.id, r.category, r.parentCategory ?? null, r.tags ?? []])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
const tree = (l: Ledger) =>
  l
    .listCategories()
    .map((c) => [c.type, c.name, c.parentId === null ? null : l.category(c.parentId).name])
    .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
const tagList = (l: Ledger) => l.listTags().map((t) => [t.name, t.count]);

async function pair(): Promise<{ a: Device; b: Device; clock: TestClock; devices: Device[] }> {
  const clock = new TestClock();
  const { devices } = makeDevices(2, { clock });
  open.push(...devices);
  const [a, b] = devices as [Device, Device];
  return { a, b, clock, devices };
}

describe('tags and sub-categories on two devices', () => {
  it('a tagged row under a new sub-category on A appears on B, and a tag B removes goes on A', async () => {
    const { a, b, clock, devices } = await pair();
    const food = a.ledger.listCategories().find((c) => c.name === '餐饮')!;
    const breakfast = a.ledger.addCategory('早餐', 'EXPENSE', food.id);
    const [row] = a.history.saveBatch([item({ category: '早餐', description: '豆浆', tags: ['出差', '报销'] })]);
    await quiesce(devices);
    expect(tagsOf(b.ledger)).toEqual([[row!.id, '早餐', '餐饮', ['出差', '报销']]]);
    expect(tree(b.ledger)).toEqual(tree(a.ledger));

    clock.tick(60_000);
    b.history.updateTransaction(row!.id, { tags: ['出差'] });
    await quiesce(devices);
    expect(a.ledger.getTransaction(row!.id)!.tags).toEqual(['出差']);
    expect(tagList(a.ledger)).toEqual([
      ['出差', 1],
      ['报销', 0],
    ]);

    // A rename and a tag deleted on one side reach the other.
    clock.tick(60_000);
    a.ledger.renameTag(a.ledger.listTags().find((t) => t.name === '出差')!.id, '差旅');
    b.ledger.deleteTag(b.ledger.listTags().find((t) => t.name === '报销')!.id);
    await quiesce(devices);
    for (const d of devices) {
      expect(tagList(d.ledger), d.name).toEqual([['差旅', 1]]);
      expect(d.ledger.getTransaction(row!.id)!.tags, d.name).toEqual(['差旅']);
      expect(d.ledger.periodStats({ from: '2026-02-01', to: '2026-02-28', granularity: 'month', tag: '差旅' }).expenseFen).toBe(60_00);
    }

    // Moving the child back to the top level travels as well.
    clock.tick(60_000);
    b.ledger.setCategoryParent(b.ledger.listCategories().find((c) => c.name === '早餐')!.id, null);
    await quiesce(devices);
    expect(a.ledger.category(breakfast.id).parentId).toBeNull();
    expect(books(b.ledger, ['2026-02'])).toEqual(books(a.ledger, ['2026-02']));
  });

  it('both devices tagging rows with the same new tag offline end with one tag, every link kept', async () => {
    const { a, b, clock, devices } = await pair();
    const [ra] = a.history.saveBatch([item({ description: 'A', tags: ['装修'] })]);
    clock.tick(1000);
    const [rb] = b.history.saveBatch([item({ description: 'B', tags: ['装修', '家'] })]);
    await quiesce(devices);
    for (const d of devices) {
      expect(tagList(d.ledger), d.name).toEqual([
        ['装修', 2],
        ['家', 1],
      ]);
      expect(d.ledger.getTransaction(ra!.id)!.tags).toEqual(['装修']);
      expect(d.ledger.getTransaction(rb!.id)!.tags).toEqual(['装修', '家']);
    }
    expect(tagsOf(a.ledger)).toEqual(tagsOf(b.ledger));
  });

  it('a row deleted on A while B tags it: the delete wins on both, and A’s undo brings it back as A deleted it', async () => {
    const { a, b, clock, devices } = await pair();
    const [row] = a.history.saveBatch([item({ description: '机票', tags: ['出差'] })]);
    await quiesce(devices);
    clock.tick(60_000);
    a.history.remove([row!.id]);
    b.history.updateTransaction(row!.id, { tags: ['出差', '报销'] });
    await quiesce(devices);
    for (const d of devices) expect(d.ledger.getTransaction(row!.id), d.name).toBeUndefined();
    clock.tick(60_000);
    a.history.undo();
    await quiesce(devices);
    for (const d of devices) expect(d.ledger.getTransaction(row!.id)?.tags, d.name).toEqual(['出差']);
  });

  it('A undoing its delete before it hears of B’s tag: B’s tag survives on both', async () => {
    const { a, b, clock, devices } = await pair();
    const [row] = a.history.saveBatch([item({ description: '机票', tags: ['出差'] })]);
    await quiesce(devices);
    clock.tick(60_000);
    a.history.remove([row!.id]);
    await a.engine.round();
    a.history.undo();
    b.history.updateTransaction(row!.id, { tags: ['出差', '报销'] });
    await b.engine.round();
    await quiesce(devices);
    for (const d of devices) expect(d.ledger.getTransaction(row!.id)?.tags, d.name).toEqual(['出差', '报销']);
  });

  it('concurrent moves that would nest three levels or loop end as a two-level tree, the same on both', async () => {
    const { a, b, clock, devices } = await pair();
    for (const name of ['甲', '乙', '丙', '丁', '戊']) a.ledger.addCategory(name, 'EXPENSE');
    await quiesce(devices);
    const id = (d: Device, name: string) => d.ledger.listCategories().find((c) => c.name === name)!.id;
    clock.tick(60_000);
    // Three levels: 丙 under 甲 on A, 甲 under 乙 on B. A loop: 丁 under 戊 on A, 戊 under 丁 on B.
    a.ledger.setCategoryParent(id(a, '丙'), id(a, '甲'));
    a.ledger.setCategoryParent(id(a, '丁'), id(a, '戊'));
    b.ledger.setCategoryParent(id(b, '甲'), id(b, '乙'));
    b.ledger.setCategoryParent(id(b, '戊'), id(b, '丁'));
    await quiesce(devices);
    expect(tree(a.ledger)).toEqual(tree(b.ledger));
    for (const d of devices) {
      for (const c of d.ledger.listCategories().filter((c) => c.parentId !== null)) {
        expect(d.ledger.category(c.parentId!).parentId, `${d.name} ${c.name}`).toBeNull();
      }
    }
  });

  it('a child whose parent the other device deleted stays, at the top level, with its rows', async () => {
    const { a, b, clock, devices } = await pair();
    a.ledger.addCategory('爱好', 'EXPENSE');
    await quiesce(devices);
    clock.tick(60_000);
    const parent = b.ledger.listCategories().find((c) => c.name === '爱好')!;
    b.ledger.addCategory('鱼竿', 'EXPENSE', parent.id);
    b.history.saveBatch([item({ category: '鱼竿', description: '新竿' })]);
    a.ledger.deleteCategory(a.ledger.listCategories().find((c) => c.name === '爱好')!.id);
    await quiesce(devices);
    for (const d of devices) {
      expect(d.ledger.listCategories().find((c) => c.name === '鱼竿'), d.name).toMatchObject({ parentId: null, count: 1 });
      expect(d.ledger.listCategories().some((c) => c.name === '爱好'), d.name).toBe(false);
    }
    expect(books(b.ledger, ['2026-02'])).toEqual(books(a.ledger, ['2026-02']));
  });
});
