import { describe, expect, it } from 'vitest';
import { cut } from 'jieba-wasm';
import { PRESET_CATEGORIES } from '@shared/categories';
import type { CategoryCandidate } from '../../categories/index';
import { createWordCategorizer } from './words';

const presets: CategoryCandidate[] = PRESET_CATEGORIES.map((c, i) => ({ id: i + 1, name: c.name, type: c.type, sortOrder: i }));
const own = (name: string, id: number): CategoryCandidate => ({ id, name, type: 'EXPENSE', sortOrder: 100 + id });
const nameOf = (c: CategoryCandidate | undefined) => c?.name;

describe('createWordCategorizer', () => {
  const categorize = createWordCategorizer(presets);
  const expense = (...texts: string[]) => nameOf(categorize(texts, 'EXPENSE'));

  it('matches whole words, so a canteen of 交通大学 is 餐饮', () => {
    // jieba's words, asserted so a dictionary change shows here first.
    expect(cut('上海交通大学第一食堂', true)).toEqual(['上海交通大学', '第一', '食堂']);
    expect(cut('交通大学食堂', true)).toEqual(['交通', '大学', '食堂']);
    expect(expense('上海交通大学第一食堂')).toBe('餐饮');
    // 交通 is a word here, as long as 食堂: the later word, the head of the phrase, wins.
    expect(expense('交通大学食堂')).toBe('餐饮');
  });

  it('files merchants by their words', () => {
    expect(expense('滴滴出行')).toBe('交通');
    expect(expense('滴滴出行科技有限公司')).toBe('交通');
    expect(expense('瑞幸咖啡')).toBe('餐饮');
    expect(expense('中国移动话费充值')).toBe('账单');
    expect(expense('电影票')).toBe('娱乐');
    expect(expense('Uber')).toBe('交通');
  });

  it('takes a run of whole words for a longer keyword, and the longest match', () => {
    expect(cut('公交卡充值', true)).toEqual(['公交', '卡', '充值']);
    // 公交卡 (交通) from two words beats 充值 (账单).
    expect(expense('公交卡充值')).toBe('交通');
  });

  it('never takes a category word that is only part of a longer word', () => {
    expect(cut('医疗器械贸易公司', true)).toEqual(['医疗器械', '贸易', '公司']);
    expect(expense('医疗器械贸易公司')).toBeUndefined();
    expect(cut('交通银行', true)).toEqual(['交通银行']);
    expect(expense('交通银行')).toBeUndefined();
    expect(expense('上海交通大学')).toBeUndefined();
  });

  it('lets what was paid for win over how: 缴费 and 充值 lose a tie', () => {
    expect(cut('门诊缴费', true)).toEqual(['门诊', '缴费']);
    expect(expense('门诊缴费')).toBe('医疗');
    expect(expense('物业缴费')).toBe('住房');
    expect(expense('话费充值')).toBe('账单');
    expect(expense('充值')).toBe('账单');
  });

  it('lets the earlier text decide: the item before the merchant', () => {
    expect(expense('电影票', '美团')).toBe('娱乐');
    expect(expense('某某贸易公司', '星巴克')).toBe('餐饮');
    expect(expense('', '  ', '滴滴出行')).toBe('交通');
  });

  it('matches only categories of the row type', () => {
    expect(nameOf(categorize(['工资'], 'INCOME'))).toBe('工资');
    expect(nameOf(categorize(['滴滴出行'], 'INCOME'))).toBeUndefined();
  });

  it('answers undefined for empty and unknown texts', () => {
    expect(expense()).toBeUndefined();
    expect(expense('')).toBeUndefined();
    expect(expense('某某贸易有限公司')).toBeUndefined();
  });

  it('takes the user’s own category named by a whole word over the lexicon', () => {
    const withOwn = createWordCategorizer([...presets, own('团建', 50), own('咖啡', 51)]);
    expect(cut('部门团建', true)).toEqual(['部门', '团建']);
    expect(nameOf(withOwn(['部门团建'], 'EXPENSE'))).toBe('团建');
    // 星巴克 (餐饮) is longer, but the user's 咖啡 is named.
    expect(nameOf(withOwn(['星巴克咖啡'], 'EXPENSE'))).toBe('咖啡');
    // Part of a word is no name: 咖啡色 is one word, a colour. A shop of it is: 咖啡馆 sells 咖啡.
    expect(cut('咖啡色', true)).toEqual(['咖啡色']);
    expect(nameOf(withOwn(['咖啡色'], 'EXPENSE'))).toBeUndefined();
    expect(cut('咖啡馆', true)).toEqual(['咖啡馆']);
    expect(nameOf(withOwn(['咖啡馆'], 'EXPENSE'))).toBe('咖啡');
  });

  it('reads a compound by its head and a shop by what it sells', () => {
    // jieba keeps these whole: no keyword is a word of them.
    for (const word of ['过桥米线', '重庆火锅', '快餐店', '面馆', '茶餐厅', '咖啡馆']) expect(cut(word, true)).toEqual([word]);
    expect(expense('云南过桥米线')).toBe('餐饮');
    expect(expense('重庆火锅')).toBe('餐饮');
    expect(expense('快餐店')).toBe('餐饮');
    expect(expense('老王面馆')).toBe('餐饮');
    expect(expense('港式茶餐厅')).toBe('餐饮');
    expect(expense('东北饺子馆')).toBe('餐饮');
    expect(expense('新华书店')).toBe('教育');
    // jieba cuts this shop apart: 烟 / 酒店. It sells 烟酒 (购物); it is no 酒店 (旅行).
    expect(cut('烟酒店', true)).toEqual(['烟', '酒店']);
    expect(expense('某某烟酒店')).toBe('购物');
    expect(expense('万豪大酒店')).toBe('旅行');
    // An ending of one character is no head: 红包 is no 包 (购物), 证书 no 书 (教育).
    expect(expense('红包')).toBeUndefined();
    expect(expense('证书')).toBeUndefined();
  });

  it('skips keywords of a preset the user no longer has', () => {
    const without = createWordCategorizer(presets.filter((c) => c.name !== '交通'));
    expect(nameOf(without(['滴滴出行'], 'EXPENSE'))).toBeUndefined();
  });

  it('categorizes 10 000 bill rows well under 300 ms', () => {
    createWordCategorizer(presets)(['预热'], 'EXPENSE'); // jieba's dictionary loads on the first cut of the process
    const merchants = ['滴滴出行', '瑞幸咖啡', '上海交通大学第一食堂', '中国移动', '美团', '某某贸易公司'];
    // 500 items and 300 merchants: a bill repeats them, as real ones do.
    const rows = Array.from({ length: 10_000 }, (_, i) => [`商品${i % 500}`, `${merchants[i % merchants.length]}${i % 300}`]);
    // The best of three fresh categorizers (empty caches): a busy machine slows one run, not the code.
    const runs = [0, 1, 2].map(() => {
      const fresh = createWordCategorizer(presets);
      const started = performance.now();
      for (const texts of rows) fresh(texts, 'EXPENSE');
      return performance.now() - started;
    });
    expect(Math.min(...runs)).toBeLessThan(300);
  });
});
