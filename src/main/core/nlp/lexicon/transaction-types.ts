// Words that decide EXPENSE, INCOME or TRANSFER (src/main/core/nlp/transaction-type.ts,
// correction.ts, query.ts). Without any of them an item is an expense or takes its category's type.
import type { TransactionType } from '@shared/domain';
import { words } from './words';

/** Money came in (报销, 退款, 卖了 …). */
export const INCOME_WORDS = words(`
  收入 收到 收了 收款 进账 到账 入账 报销 退款 退钱 退了 退回 返现 返利 赚了 赚到 挣了 挣到 利息 收益 卖了 卖掉 退税 补贴 津贴 收租
  回款 结算了 中了 中奖 捡到 捡了 发工资 发奖金 发了奖金 发薪
`);

/**
 * Money paid to the user by the state or a fund (退休金发了, 养老金打到卡上了, 低保到账). It comes in
 * by transfer, so these win over transfer words; paid in (交养老金, 养老金缴了) it is spending.
 */
export const BENEFITS = words(`
  退休金 退休工资 养老金 养老保险金 低保金 低保 抚恤金 失业金 失业保险金 救济金 补助金 助学金 生活补助 困难补助 高龄补贴
  公积金提取 提取公积金 提取了公积金 提了公积金 取了公积金
`);

/** Right before or after a benefit: paid in, not paid out (交养老金, 养老金扣了). */
export const PAID_IN = words('补缴 缴纳 交了 缴了 扣了 交 缴 扣 存');

/** 卖 alone is a sale too, but not in 外卖, 小卖部, 卖家, 卖菜 …: the words right before and after it. */
export const NOT_SALE_BEFORE = words('外');
export const NOT_SALE_AFTER = words('部 场 家 点 相 萌 菜 票');

/** Money moved, neither spent nor earned (还信用卡, 借给, 存钱). */
export const TRANSFER_WORDS = words(`
  打钱 汇款 汇了 汇给 借出 借入 转账 转给 转到 转入 转出 转了 还钱 还款 还了 还给 还我 借给 借钱 借了 存钱 存了 存入 取钱 取现 提现
  还信用卡 还花呗 还白条
`);

/** In a question about the ledger (上周收入多少, 这个月转账多少): the type asked about. */
export const ASKED_INCOME = words('收入 赚 挣 进账 入账 收到 到账');
export const ASKED_TRANSFER = words('转账 转出 转给');

const typed = (type: TransactionType, list: readonly string[]) => list.map((word) => ({ word, type }));

/**
 * Words that name a type outright in a correction (改为收入, 不是支出, 是别人给我的). They are cut
 * from the correction's words in this order, so a phrase goes before any phrase inside it
 * (别人给我的 before 给我的).
 */
export const TYPE_NAMES: readonly { word: string; type: TransactionType }[] = [
  ...typed('INCOME', words('收入 进账 入账')),
  ...typed('EXPENSE', words('支出 开支 花销 消费 花费')),
  ...typed('TRANSFER', words('转账')),
  ...typed('EXPENSE', words('发出去 送出去 付出去')),
  ...typed('INCOME', words('别人给的 别人给我的 别人送的')),
  ...typed('EXPENSE', words('给别人的 我发的 发出的 花出去')),
  ...typed('INCOME', words('发给我的 给我的 别人发的 收回来 收来的 收的 收到的')),
];
