import { describe, expect, it } from 'vitest';
import { toZonedNow } from '@shared/time';
import { findAccounts } from './accounts';
import { fuzzySyllable, hearHomophones } from './homophones';
import { parseLocal } from './index';

const now = toZonedNow('2026-11-24T20:00:00+08:00');

describe('fuzzySyllable', () => {
  it('takes the sounds recognizers confuse as one', () => {
    expect(fuzzySyllable('zhi')).toBe(fuzzySyllable('zi'));
    expect(fuzzySyllable('chang')).toBe(fuzzySyllable('can'));
    expect(fuzzySyllable('shui')).toBe(fuzzySyllable('sui'));
    expect(fuzzySyllable('ning')).toBe(fuzzySyllable('lin'));
    expect(fuzzySyllable('xing')).toBe('xin');
    expect(fuzzySyllable('feng')).toBe('fen');
    expect(fuzzySyllable('ng')).toBe('ng');
    expect(fuzzySyllable('hua')).not.toBe(fuzzySyllable('fa'));
  });
});

describe('hearHomophones', () => {
  it.each([
    ['支付包付了电费九十三', '支付宝付了电费九十三'],
    ['用支付保交了燃气费七十七', '用支付宝交了燃气费七十七'],
    ['威信付的奶茶十四', '微信付的奶茶十四'],
    ['微性扫码买了瓶水三块五', '微信扫码买了瓶水三块五'],
    ['网费一百用的支付包', '网费一百用的支付宝'],
    // in/ing, z/zh, n/l, an/ang
    ['微星付的奶茶', '微信付的奶茶'],
    ['用资付宝付的', '用支付宝付的'],
    ['宁钱付的奶茶', '零钱付的奶茶'],
    ['付的香金', '付的现金'],
  ])('hears the account in %s', (text, heard) => {
    expect(hearHomophones(text)).toBe(heard);
  });

  it.each([
    ['晚上叫了外买四十一', '晚上叫了外卖四十一'],
    ['点外买花了三十七', '点外卖花了三十七'],
    ['外买三十五', '外卖三十五'],
  ])('hears the category word in %s', (text, heard) => {
    expect(hearHomophones(text)).toBe(heard);
  });

  it.each([
    // A word of its own (jieba knows 花费), not 话费.
    '花费了三十',
    // Sounds like 微信, but nothing was paid with it.
    '他在单位很有威信',
    '他很有威信花了三百请客',
    '威信这个人挺好的',
    // 支付 alone, and 支付包装费 where nothing pays.
    '支付三十',
    '支付了三十块停车费',
    '支付包装费三十',
    // The words hold a category of their own (工资, 纸巾, 车险), or a name (小李), or a particle
    // read by its rare sound (了 as liao: 理疗, 资料).
    '这个月工资到账8500',
    '领工资五千',
    '买了包纸巾五块',
    '每年三月五号交车险四千',
    '还小李钱五百',
    '理了个发三十',
    '发工资了8000',
    '欠二叔的一千六转给他了',
    '三十万的车',
  ])('leaves %s as it is', (text) => {
    expect(hearHomophones(text)).toBe(text);
  });

  it("hears the book's own accounts and categories", () => {
    expect(hearHomophones('用招航卡付的午饭三十', { accounts: ['招行卡'] })).toBe('用招行卡付的午饭三十');
    expect(hearHomophones('这周团见三百', { customCategories: [{ name: '团建', type: 'EXPENSE' }] })).toBe('这周团建三百');
    // Never a single character.
    expect(hearHomophones('用咔付的', { accounts: ['卡'] })).toBe('用咔付的');
  });
});

describe('accounts said anywhere', () => {
  const first = (text: string, accounts?: string[]) => parseLocal(text, { now, ...(accounts ? { accounts } : {}) }).results[0]!;

  it.each([
    ['晚上吃烤鱼一百三十八用的微信', '微信', '吃烤鱼'],
    ['支付宝那个话费充了六十六', '支付宝', '话费'],
    ['理发七十五刷的信用卡', '信用卡', '理发'],
    ['物业费四百二从银行卡扣的', '银行卡', '物业费'],
    ['早点铺包子九块付的现金', '现金', '早点铺包子'],
    ['花呗那个吹风机三百二', '花呗', '吹风机'],
    ['支付包付了电费九十三', '支付宝', '电费'],
  ])('%s is paid with its account, which is no word of the note', (text, account, description) => {
    expect(first(text)).toMatchObject({ account, description });
  });

  it('keeps the account words of a card bill, a top-up or a repayment as what the money went to', () => {
    expect(first('还信用卡那个两千')).toMatchObject({ account: null, type: 'TRANSFER' });
    expect(first('信用卡还款两千五')).toMatchObject({ account: null, type: 'TRANSFER' });
    expect(first('给支付宝充值五百').account).toBeNull();
    expect(first('支付宝那个充了五百').account).toBeNull();
  });

  it('lets the account not decide the category (理发 with 信用卡 is 购物)', () => {
    expect(first('理发七十五刷的信用卡')).toMatchObject({ category: '购物' });
  });

  it("reads the book's own account names, said or misheard", () => {
    expect(first('用工资卡付的午饭三十', ['工资卡'])).toMatchObject({ account: '工资卡', category: '餐饮', description: '午饭' });
    expect(first('用招航卡付的午饭三十', ['招行卡'])).toMatchObject({ account: '招行卡', description: '午饭' });
    expect(first('用招航卡付的午饭三十').account).toBeNull();
  });

  it('gives each item the account told after it', () => {
    const { results } = parseLocal('午饭三十用的微信打车二十刷的信用卡', { now });
    expect(results.map((r) => r.account)).toEqual(['微信', '信用卡']);
  });

  it('takes the name after a shared paying word (钱包付的现金)', () => {
    expect(findAccounts('钱包付的现金', ['钱包']).map((a) => a.account)).toEqual(['现金']);
  });
});
