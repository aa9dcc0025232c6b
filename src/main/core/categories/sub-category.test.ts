import { describe, expect, it } from 'vitest';
import { subCategoryFor } from './sub-category';

describe("the sub-category an item's words name", () => {
  const meals = ['早餐', '午餐', '晚餐', '零食'];

  it('a child by its own name or any word of its synonyms', () => {
    expect(subCategoryFor('早饭包子', meals)).toBe('早餐');
    expect(subCategoryFor('中饭盖浇饭', meals)).toBe('午餐');
    expect(subCategoryFor('晚餐', meals)).toBe('晚餐');
    expect(subCategoryFor('买了包薯片', meals)).toBe('零食');
  });

  it('a child the user named with another word of the same set', () => {
    expect(subCategoryFor('早餐两个包子', ['早饭', '午饭'])).toBe('早饭');
    expect(subCategoryFor('打车回家', ['出租车', '地铁'])).toBe('出租车');
  });

  it('none when the words name no child: the item stays in the parent', () => {
    expect(subCategoryFor('吃火锅', meals)).toBeNull();
    expect(subCategoryFor('早饭', [])).toBeNull();
    expect(subCategoryFor('早饭', ['午餐'])).toBeNull();
  });

  it('the longest word wins when two children are named', () => {
    expect(subCategoryFor('地铁卡充值', ['地铁', '地铁卡'])).toBe('地铁卡');
    expect(subCategoryFor('美团外卖午饭', ['午餐', '外卖'])).toBe('外卖');
  });
});
