// The categories a household's everyday bills land in, each layout read by the app's own
// import against a ledger's preset categories: the bill's own category and the whole words of
// its merchant, item and note weighed together, and little of the spending left in 其他.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_CATEGORY } from '@shared/categories';
import { toZonedNow } from '@shared/time';
import { alipayHousehold, jdHousehold, meituanHousehold, wechatHousehold } from '../../../../../test/support/bill-category-fixtures';
import { openLedger, parseImport, type Ledger } from '../index';
import type { ImportRow } from '../types';

const NOW = toZonedNow('2026-04-02T10:00:00+08:00');
let ledger: Ledger;

beforeAll(() => {
  ledger = openLedger({ path: ':memory:', now: () => NOW });
});
afterAll(() => ledger.close());

async function rowsOf(bytes: Uint8Array): Promise<ImportRow[]> {
  const context = {
    categories: ledger.categoryCandidates(),
    accounts: ledger.accounts().map((a) => a.name),
    merchantCategories: new Map<string, string>(),
  };
  return (await parseImport(bytes, context)).rows;
}

/** Each row's category by its description (merchant and item, as the import writes it). */
const categories = (rows: readonly ImportRow[]) => Object.fromEntries(rows.map((r) => [r.description, r.category]));

/** The share of the bill's spending (refunds netted) that lands in 其他. */
function otherShare(rows: readonly ImportRow[]): number {
  let total = 0;
  let other = 0;
  for (const r of rows) {
    if (r.type !== 'EXPENSE') continue;
    const fen = r.flow === 'refund' ? -r.amountFen : r.amountFen;
    total += fen;
    if (r.category === OTHER_CATEGORY) other += fen;
  }
  return other / total;
}

const MOST_IN_OTHER = 0.15;

describe('the categories of a household’s bills', () => {
  it('Alipay: 美团 and 饿了么 takeaway filed under 生活服务 is 餐饮; rent and red packets sent by transfer', async () => {
    const rows = await rowsOf(alipayHousehold());
    expect(categories(rows)).toMatchObject({
      // 生活服务 says too little; 外卖 says what it was.
      '美团 美团外卖订单': '餐饮',
      '上海拉扎斯信息科技有限公司 饿了么外卖订单': '餐饮',
      // An order that names only the food platform.
      '美团平台商户 美团订单-26032711100401': '餐饮',
      '某某家政服务有限公司 日常保洁3小时': '住房',
      '菜鸟驿站 快递费': '其他',
      // A vague 其他 gives way to the merchant's word.
      '老街过桥米线 收钱码收款': '餐饮',
      '某某酒家 商品': '餐饮',
      '永辉超市 超市购物': '购物',
      '国网上海市电力公司 电费': '账单',
      '某某大药房 感冒灵颗粒': '医疗',
      '陈某某 3月房租': '住房',
      '李某 红包': '人情往来',
      '某某科技有限公司 2月工资': '工资',
    });
    expect(otherShare(rows)).toBeLessThanOrEqual(MOST_IN_OTHER);
  });

  it('WeChat: group and single red packets, rent by transfer (in its note too), shops named by what they sell', async () => {
    const rows = await rowsOf(wechatHousehold());
    expect(categories(rows)).toMatchObject({
      '美团 美团外卖订单': '餐饮',
      '饿了么 饿了么订单': '餐饮',
      相亲相爱一家人: '人情往来',
      王某: '人情往来',
      李四: '红包',
      '某某川菜餐厅 收款方备注:二维码收款': '餐饮',
      '老街过桥米线 收款方备注:二维码收款': '餐饮',
      '兰州牛肉面馆 牛肉面': '餐饮',
      '中国石化加油站 加油': '交通',
      '国网浙江省电力有限公司 电费': '账单',
      '某某水务集团 水费': '账单',
      '某某社区卫生服务中心 门诊缴费': '医疗',
      '某某物业服务有限公司 物业费': '住房',
      // A transfer is to a person: the note says what for, the nickname never does.
      '赵六 周末聚餐AA': '餐饮',
      '陈某某 转账备注:4月房租': '住房',
      周某: '住房',
      妈妈: '人情往来',
      '顺丰速运 运费': '其他',
    });
    expect(otherShare(rows)).toBeLessThanOrEqual(MOST_IN_OTHER);
  });

  it('JD: 网购 gives way to the item’s words, a specific 交易分类 decides', async () => {
    const rows = await rowsOf(jdHousehold());
    expect(categories(rows)).toMatchObject({
      '京东平台商户 金龙鱼 东北大米 5kg': '餐饮',
      '京东平台商户 蓝月亮 洗衣液 3kg': '购物',
      '京东平台商户 伊利 纯牛奶 250ml*24盒': '餐饮',
      '京东平台商户 成猫 猫粮 2kg': '宠物',
      '京东平台商户 维生素C片 100片': '医疗',
      '京东平台商户 手机话费充值 100元': '账单',
      '京东平台商户 儿童绘本 全10册': '购物',
      '京东物流 京东物流': '其他',
    });
    expect(otherShare(rows)).toBeLessThanOrEqual(MOST_IN_OTHER);
  });

  it('Meituan: orders named by their shop, the branch in brackets never counting', async () => {
    const rows = await rowsOf(meituanHousehold());
    expect(categories(rows)).toMatchObject({
      '云南过桥米线（万达店）': '餐饮',
      '杨国福麻辣烫（人民路店）': '餐饮',
      '老王家常菜（滨江店）': '餐饮',
      '重庆火锅（万象城店） 4人套餐': '餐饮',
      // A shop's name with no word for what it sells: on a food platform, a meal.
      '福满楼（江滨店）': '餐饮',
      '某某大药房（中山路店）': '医疗',
      '美团单车 骑行卡': '交通',
      '打车 快车订单': '交通',
      '某某影城 电影票': '娱乐',
      // 火车站 is where the hotel is, not what was bought.
      '全季酒店（火车站店）': '旅行',
      美团买菜: '餐饮',
    });
    expect(otherShare(rows)).toBeLessThanOrEqual(MOST_IN_OTHER);
  });

  it('files a red packet under the book’s own 红包 when it has one', async () => {
    const own = openLedger({ path: ':memory:', now: () => NOW });
    try {
      own.addCategory('红包', 'EXPENSE');
      const context = { categories: own.categoryCandidates(), accounts: [], merchantCategories: new Map<string, string>() };
      const { rows } = await parseImport(wechatHousehold(), context);
      expect(categories(rows)).toMatchObject({ 相亲相爱一家人: '红包', 王某: '红包', 李四: '红包', 妈妈: '人情往来' });
    } finally {
      own.close();
    }
  });
});
