// Never filed into a hidden category (issue 43): what the ledger places a spoken item under and
// what its save writes, against a real ledger whose categories the user hid, nested and made.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransactionType } from '@shared/domain';
import { openLedger, type Ledger } from '../ledger/index';
import { item, NOW } from '../../../../test/support/ledger-fixtures';
import { visibleCategory, type ShownCandidate } from './index';

let ledger: Ledger;
beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
});
afterEach(() => ledger.close());

const idOf = (name: string, type: TransactionType = 'EXPENSE') => ledger.listCategories().find((c) => c.name === name && c.type === type)!.id;
const hide = (name: string, type: TransactionType = 'EXPENSE') => ledger.setCategoryHidden(idOf(name, type), true);
/** Where the card files an item, and where its save puts it: the two must agree. */
const filed = (category: string, description: string, type: TransactionType = 'EXPENSE') => {
  const placed = ledger.placeCategory(category, type, description);
  const [row] = ledger.saveBatch([item({ category, description, type })]);
  return { placed, saved: row!.category };
};

describe('a hidden category is never where an item lands', () => {
  it('the hidden preset 旅行 (酒店): the closest shown category, the same on the card and in the ledger', () => {
    expect(ledger.listCategories().find((c) => c.name === '旅行')?.hidden).toBe(true);
    expect(filed('旅行', '住酒店')).toEqual({ placed: '其他', saved: '其他' });
    expect(filed('宠物', '猫粮')).toEqual({ placed: '其他', saved: '其他' });
  });

  it('a shown category stays where it was named, 旅行 too once the user shows it', () => {
    ledger.setCategoryHidden(idOf('旅行'), false);
    expect(filed('旅行', '住酒店')).toEqual({ placed: '旅行', saved: '旅行' });
    expect(filed('交通', '打车')).toEqual({ placed: '交通', saved: '交通' });
  });

  it('a hidden sub-category the user made goes to its shown parent', () => {
    const snack = ledger.addCategory('夜宵', 'EXPENSE', idOf('餐饮'));
    ledger.setCategoryHidden(snack.id, true);
    expect(filed('夜宵', '撸串')).toEqual({ placed: '餐饮', saved: '餐饮' });
    const bonus = ledger.addCategory('年终奖', 'INCOME', idOf('奖金', 'INCOME'));
    ledger.setCategoryHidden(bonus.id, true);
    expect(filed('年终奖', '发年终奖', 'INCOME')).toEqual({ placed: '奖金', saved: '奖金' });
  });

  it('a shown sub-category under a hidden parent is hidden too: neither is used', () => {
    ledger.setCategoryHidden(idOf('旅行'), false);
    ledger.addCategory('酒店', 'EXPENSE', idOf('旅行'));
    hide('旅行');
    expect(filed('酒店', '住酒店')).toEqual({ placed: '其他', saved: '其他' });
  });

  it('with no shown parent, the shown category the words or the hidden name talk about', () => {
    ledger.addCategory('夜宵', 'EXPENSE');
    hide('夜宵');
    expect(filed('夜宵', '烧烤')).toEqual({ placed: '餐饮', saved: '餐饮' });
    ledger.addCategory('网购', 'EXPENSE');
    hide('网购');
    expect(filed('网购', '')).toEqual({ placed: '购物', saved: '购物' });
  });

  it("the user's own shown categories count: named in the words, or closest by name", () => {
    ledger.addCategory('酒店住宿', 'EXPENSE');
    expect(filed('旅行', '住酒店住宿')).toEqual({ placed: '酒店住宿', saved: '酒店住宿' });
    ledger.addCategory('宠物用品', 'EXPENSE');
    expect(filed('宠物', '')).toEqual({ placed: '宠物用品', saved: '宠物用品' });
  });

  it('a hidden preset the item words file under is left for a shown one of the same type', () => {
    hide('餐饮');
    expect(filed('餐饮', '午饭')).toEqual({ placed: '其他', saved: '其他' });
    hide('工资', 'INCOME');
    expect(filed('工资', '发工资', 'INCOME')).toEqual({ placed: '其他', saved: '其他' });
  });
});

describe('visibleCategory', () => {
  const c = (id: number, name: string, over: Partial<ShownCandidate> = {}): ShownCandidate => ({
    id,
    name,
    type: 'EXPENSE',
    sortOrder: id,
    hidden: false,
    parentId: null,
    ...over,
  });
  const list = [
    c(1, '餐饮'),
    c(2, '夜宵', { parentId: 1, hidden: true }),
    c(3, '旅行', { hidden: true }),
    c(4, '酒店', { parentId: 3 }),
    c(9, '其他'),
  ];
  it('keeps a shown one, takes a shown parent, else the closest shown one of its type', () => {
    expect(visibleCategory(list[0]!, list).name).toBe('餐饮');
    expect(visibleCategory(list[1]!, list).name).toBe('餐饮');
    expect(visibleCategory(list[3]!, list, '住酒店').name).toBe('其他');
    expect(visibleCategory(list[2]!, list, '吃火锅').name).toBe('餐饮');
  });
  it("reads no shorter word inside a hidden one's word (酒店 is no 酒), but the words around it", () => {
    expect(visibleCategory(list[2]!, list, '住酒店').name).toBe('其他');
    expect(visibleCategory(list[2]!, list, '酒店里吃火锅').name).toBe('餐饮');
  });
  it('a shared character alone is no kinship: 宠物 is no 购物', () => {
    const pets = c(5, '宠物', { hidden: true });
    expect(visibleCategory(pets, [...list, pets, c(6, '购物')]).name).toBe('其他');
  });
  it('keeps the hidden one only when its type has nothing shown', () => {
    const transfer = c(20, '转账', { type: 'TRANSFER', hidden: true });
    expect(visibleCategory(transfer, [...list, transfer])).toBe(transfer);
  });
});
