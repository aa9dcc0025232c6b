// Questions about the ledger (src/main/core/nlp/query.ts): 「这个月花了多少」「本周支出」. The
// period words are grammar with numbers and stay there; the type asked about is in
// transaction-types.ts.
import { words } from './words';

/** Asks for a sum. */
export const QUESTION_WORDS = words('多少 几块 几元 几毛 几钱 花了几 统计 汇总 总支出是 总收入是');

/** 本月支出, 上个月餐饮开销: a period and one of these ask for the total even without 多少. */
export const TOTAL_WORDS = words('支出 收入 开销 花销 开支 消费 花费 进账');

/** 一共的支出, 收入情况呢: what may stand around a total word. */
export const TOTAL_PREFIXES = words('总 总共 一共 全部 所有');
export const TOTAL_SUFFIXES = words('情况 总额 合计 总计 汇总');
export const TOTAL_PARTICLES = words('呢 吗 啊 呀');

/** 这个月预算还剩多少, 餐饮预算用了多少: the word that makes a question one about budgets. */
export const BUDGET_WORDS = words('预算');
/** What, said with a budget word, asks how it stands (预算还剩多少, 预算够不够, 预算情况). */
export const BUDGET_QUESTION_WORDS = words('多少 几块 几元 还剩 剩下 剩余 用了 花了 超了 超出 够不够 够吗 情况 怎么样 如何 呢 吗');
/** 这个月还能花多少: what is left of the budget, asked without naming it (with 多少 or 几). */
export const SPENDABLE_WORDS = words('还能花 还可以花 还可花 能花的 可以花的 还能用 还可以用');
/** 多少, 几块: the amount asked for after SPENDABLE_WORDS. */
export const HOW_MUCH_WORDS = words('多少 几块 几元 几百 几千');
