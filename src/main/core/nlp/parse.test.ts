import { describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { parseLocal, readAmountReply } from './index';

const now = toZonedNow('2026-02-17T12:00:00+08:00');
const first = (text: string, customCategories?: { name: string; type: 'EXPENSE' | 'INCOME' | 'TRANSFER' }[]) =>
  parseLocal(text, { now, customCategories }).results[0];

describe('type words', () => {
  it.each([
    ['工资到账8000', 'INCOME', '工资'],
    ['薪水6000', 'INCOME', '工资'],
    ['年终奖两万', 'INCOME', '奖金'],
    ['兼职收入300', 'INCOME', '兼职'],
    ['退款50', 'INCOME', null],
    ['收到红包200', 'INCOME', '红包'],
    ['抢到红包5块', 'INCOME', '红包'],
    ['红包收了60', 'INCOME', '红包'],
    ['发红包200', 'EXPENSE', '人情往来'],
    ['给妈妈发了个红包500', 'EXPENSE', '人情往来'],
    ['转账给小明500', 'TRANSFER', '转账'],
    ['还款2000', 'TRANSFER', '转账'],
    ['收到小王转账300', 'INCOME', null],
    ['午饭35', 'EXPENSE', '餐饮'],
  ])('%s → %s %s', (text, type, category) => {
    expect(first(text)).toMatchObject({ type, category });
  });
});

describe('categories', () => {
  it('prefers the longest keyword (加油 over 油, 游戏充值 over 充值)', () => {
    expect(first('加油300')!.category).toBe('交通');
    expect(first('游戏充值30')!.category).toBe('娱乐');
    expect(first('充值30')!.category).toBe('账单');
  });

  it('takes the earlier mention on equal length', () => {
    expect(first('打车去吃饭50')!.category).toBe('交通');
    expect(first('吃饭后打车50')!.category).toBe('餐饮');
  });

  it('uses the category name itself as a keyword', () => {
    expect(first('医疗费用200')!.category).toBe('医疗');
  });

  it('lets a custom category named in the text win', () => {
    expect(first('猫粮80', [{ name: '猫粮', type: 'EXPENSE' }])!.category).toBe('猫粮');
    expect(first('咖啡豆120', [{ name: '咖啡豆', type: 'EXPENSE' }])!.category).toBe('咖啡豆');
  });

  it('gives null when nothing is known', () => {
    expect(first('做了件事')!.category).toBeNull();
  });
});

describe('descriptions', () => {
  it.each([
    ['昨天打车花了28块5', '打车'],
    ['一百零八块的外卖', '外卖'],
    ['午饭花了35块', '午饭'],
    ['年终奖到了一万', '年终奖'],
    ['今天早上买咖啡花了18', '买咖啡'],
    ['花了35', ''],
  ])('%s → %j', (text, description) => {
    expect(first(text)!.description).toBe(description);
  });
});

describe('items of one utterance', () => {
  it('gives every item in the order spoken', () => {
    const out = parseLocal('吃饭花了60，打车30', { now });
    expect(out.truncated).toBe(false);
    expect(out.results).toHaveLength(2);
    expect(out.results[0]).toMatchObject({ amount: 60, category: '餐饮', description: '吃饭', source: 'local' });
    expect(out.results[1]).toMatchObject({ amount: 30, category: '交通', description: '打车', source: 'local' });
  });

  it('keeps one amount written in several parts as one item', () => {
    expect(parseLocal('两块五毛', { now }).results).toHaveLength(1);
    expect(parseLocal('2月15号吃饭60', { now }).results).toHaveLength(1);
  });

  it('drops an amount the speaker denies (不是30是35)', () => {
    const out = parseLocal('打车不是30是35', { now });
    expect(out.results).toHaveLength(1);
    expect(out.results[0]!.amount).toBe(35);
    expect(parseLocal('不是35', { now }).results[0]!.amount).toBe(35);
    expect(parseLocal('打车30，不对，是35', { now }).results).toMatchObject([{ amount: 35, category: '交通' }]);
  });

  it('returns nothing for blank or punctuation-only text', () => {
    expect(parseLocal('', { now }).results).toEqual([]);
    expect(parseLocal(' ，。 ', { now }).results).toEqual([]);
  });

  it('returns a result without amount when the words are an item', () => {
    expect(parseLocal('打车', { now }).results[0]).toMatchObject({ amount: null, category: '交通' });
    expect(parseLocal('打车，还有午饭35', { now }).results).toMatchObject([
      { amount: null, category: '交通', description: '打车' },
      { amount: 35, category: '餐饮' },
    ]);
  });

  it('keeps the first ten items and says that more were said', () => {
    const text = Array.from({ length: 12 }, (_, i) => `打车${i + 1}块`).join('，');
    const out = parseLocal(text, { now });
    expect(out.truncated).toBe(true);
    expect(out.results.map((r) => r.amount)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('carries a day to the items after it until another day is said', () => {
    const out = parseLocal('昨天打车30还有奶茶15，今天午饭20', { now });
    expect(out.results.map((r) => r.date)).toEqual(['2026-02-16', '2026-02-16', '2026-02-17']);
  });

  it('reuses the amount before for 也是 and 一样', () => {
    expect(parseLocal('午饭35块，晚饭也是', { now }).results.map((r) => [r.amount, r.description])).toEqual([
      [35, '午饭'],
      [35, '晚饭'],
    ]);
  });

  it('leaves a total of the items out and keeps a total said on its own', () => {
    expect(parseLocal('鸡蛋十二块牛奶八块一共二十', { now }).results.map((r) => r.amount)).toEqual([12, 8]);
    expect(parseLocal('三个人吃饭总共花了一百八', { now }).results.map((r) => r.amount)).toEqual([180]);
  });
});

describe('a reply that is only an amount', () => {
  it.each([
    ['二十八', 28],
    ['28', 28],
    ['28块', 28],
    ['28块钱', 28],
    ['二十八块吧', 28],
    ['就28', 28],
    ['28元。', 28],
    ['两块五', 2.5],
    ['嗯，三十五', 35],
    ['大概一百二', 120],
    ['¥19.9', 19.9],
  ])('%s → %d', (text, amount) => {
    expect(readAmountReply(text)).toBe(amount);
  });

  it.each(['打车28', '第二笔28', '改成28', '确认', '', '28号', '3点', '-5', '三十还是四十', '不是28'])('%s → null', (text) => {
    expect(readAmountReply(text)).toBeNull();
  });
});

describe('accounts', () => {
  it('reads the paying account next to a paying word', () => {
    expect(first('用支付宝付了30块打车')).toMatchObject({ account: '支付宝', description: '打车', category: '交通' });
    expect(first('微信转给小明200')).toMatchObject({ account: '微信', type: 'TRANSFER' });
  });

  it('does not let the account decide the category', () => {
    expect(first('刷信用卡买衣服500')).toMatchObject({ account: '信用卡', category: '购物' });
  });

  it('leaves the account to the default when none is named', () => {
    expect(first('还信用卡3000')).toMatchObject({ account: null, type: 'TRANSFER' });
    expect(first('午饭35')!.account).toBeNull();
  });
});

describe('signed amounts', () => {
  it('gives no amount for a negative one: no expense is -5', () => {
    expect(first('打车-5元')).toMatchObject({ amount: null, category: '交通', description: '打车' });
  });

  it('lets a signed amount end its item, so the next item keeps its own amount', () => {
    const out = parseLocal('打车-5元，吃饭30', { now });
    expect(out.results).toMatchObject([
      { amount: null, description: '打车' },
      { amount: 30, description: '吃饭' },
    ]);
  });
});
