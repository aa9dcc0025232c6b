import { item } from '../test/support/ledger-fixtures';
import type { Ledger } from '@core/ledger/index';

// A household's month written straight into the ledger, for the e2e tests that look at full
// pages (the accessibility sweep, the busy 统计 screenshots): what a family of three records in
// a month, with tags, a sub-category, a loan and its repayment, a 待报销 expense, a refund, a
// recurring rule and budgets. Every row is dated in the month of `today`, on or before it.

/** Today in the browser's time zone (Asia/Shanghai), YYYY-MM-DD. */
export const shanghaiToday = (): string => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });

/** A day of today's month, no later than today: the 1st … today, spread by `n`. */
function dayOfMonth(today: string, n: number): string {
  const last = Number(today.slice(8, 10));
  const day = 1 + (n % last);
  return `${today.slice(0, 8)}${String(day).padStart(2, '0')}`;
}

export interface Household {
  /** How many rows the month holds. */
  rows: number;
  month: string;
}

/** Writes a busy month into `ledger` (about forty rows); `rich` false writes a handful. */
export function seedHousehold(ledger: Ledger, options: { today?: string; rich?: boolean } = {}): Household {
  const today = options.today ?? shanghaiToday();
  const rich = options.rich ?? true;
  const food = ledger.listCategories().find((c) => c.name === '餐饮' && c.type === 'EXPENSE')!;
  if (!ledger.listCategories().some((c) => c.name === '早餐')) ledger.addCategory('早餐', 'EXPENSE', food.id);
  if (!ledger.listAccounts().some((a) => a.name === '招商银行')) ledger.addAccount('招商银行', 12_000_00);
  // This family uses the presets that start hidden: nothing is filed into a hidden category.
  for (const c of ledger.listCategories()) if (c.hidden && (c.name === '宠物' || c.name === '旅行')) ledger.setCategoryHidden(c.id, false);

  const d = (n: number) => dayOfMonth(today, n);
  const base = [
    item({ amount: 15000, type: 'INCOME', category: '工资', description: '工资', date: d(0), account: '招商银行' }),
    item({ amount: 3000, category: '住房', description: '房租', date: d(1), account: '招商银行', tags: ['家'] }),
    item({ amount: 8, category: '早餐', description: '包子豆浆', date: d(2) }),
    item({ amount: 268.5, category: '购物', description: '超市采购', date: d(3), tags: ['家'] }),
    item({ amount: 1000, type: 'TRANSFER', category: null, description: '借给小李', date: d(4), flow: 'lend', counterparty: '小李' }),
    item({ amount: 80, category: '交通', description: '出差打车', date: d(5), reimbursable: true, tags: ['出差'] }),
    item({ amount: 46, category: '餐饮', description: '午饭', date: today }),
  ];
  const more = [
    item({ amount: 300, type: 'TRANSFER', category: null, description: '小李还款', date: d(6), flow: 'collect', counterparty: '小李' }),
    item({ amount: 599, category: '购物', description: '淘宝买鞋', date: d(7), tags: ['孩子'] }),
    item({ amount: 120, category: '医疗', description: '儿科挂号', date: d(8), tags: ['孩子'] }),
    item({ amount: 2380, category: '教育', description: '钢琴课', date: d(9), account: '招商银行', tags: ['孩子'] }),
    item({ amount: 156.8, category: '账单', description: '电费', date: d(10), tags: ['家'] }),
    item({ amount: 99, category: '账单', description: '宽带', date: d(11) }),
    item({ amount: 420, category: '人情往来', description: '同事婚礼红包', date: d(12) }),
    item({ amount: 65, category: '娱乐', description: '电影票', date: d(13) }),
    item({ amount: 88, category: '宠物', description: '猫粮', date: d(14) }),
    item({ amount: 1280, category: '旅行', description: '周末酒店', date: d(15), tags: ['出差', '家'] }),
    item({ amount: 3000, type: 'TRANSFER', category: null, description: '跟我哥借钱', date: d(16), flow: 'borrow', counterparty: '我哥' }),
    item({ amount: 800, type: 'INCOME', category: '其他', description: '闲鱼卖婴儿车', date: d(17) }),
    item({ amount: 35, category: '餐饮', description: '奶茶', date: d(18) }),
    item({ amount: 612, category: '餐饮', description: '家庭聚餐', date: d(19), tags: ['家'] }),
    item({ amount: 12, category: '早餐', description: '煎饼', date: d(20) }),
    item({ amount: 56, category: '交通', description: '加油', date: d(21) }),
    item({ amount: 1500, type: 'INCOME', category: '奖金', description: '项目奖金', date: d(22), account: '招商银行' }),
  ];
  const saved = ledger.saveBatch(rich ? [...base, ...more] : base);
  if (rich) {
    const shoes = saved.find((r) => r.description === '淘宝买鞋')!;
    ledger.saveBatch([
      item({ amount: 200, type: 'INCOME', category: null, description: '鞋子退款', date: d(23), flow: 'refund', refundOf: shoes.id }),
    ]);
    ledger.addRecurringRule({
      type: 'EXPENSE',
      amountFen: 3000_00,
      category: '住房',
      description: '房租',
      rule: { every: 'month', day: 5 },
      start: `${today.slice(0, 8)}01`,
    });
    ledger.setBudgets(today.slice(0, 7), [
      { categoryId: null, amountFen: 8000_00 },
      { categoryId: food.id, amountFen: 300_00 },
    ]);
  }
  const month = today.slice(0, 7);
  return { rows: ledger.count({ from: `${month}-01`, to: today }), month };
}
