// Words of a spoken repeating rule (src/main/core/nlp/recurrence.ts): 每天, 每周五, 每个月五号,
// 每个月月底, 每年三月. The numbers after them are grammar and stay there.
import { words } from './words';

export const EVERY_DAY = words('每一天 每天 每日 天天');
export const EVERY_WEEK = words('每个星期 每个礼拜 每一周 每个周 每星期 每礼拜 每周');
export const EVERY_MONTH = words('每一个月 每个月 每一月 每月');
export const EVERY_YEAR = words('每一年 每年');

/** 每个月月底, 每月末, 每个月的最后一天: after EVERY_MONTH, its last day. */
export const MONTH_END = words('最后一天 月底 月末 底 末');

/** 每周一次, 每月一回: once in each period, part of the rule. */
export const ONCE = words('一次 一回');

/** 以后每个月都交物业费: before a rule, words of its start, no item's words (从…开始 is read apart). */
export const FROM_NOW_ON = words('从今以后 以后 今后 往后');

/** 每个月都交, 每周固定打球: after a rule, words of its schedule, no item's words. Longer words first. */
export const SCHEDULE_WORDS = words('都要 都会 都得 都是 都 也 要 会 固定 定期 按时 准时');

/** 每周都想去游泳: a wish follows the rule, not a payment. Longer words first. */
export const WISHES = words('想要 好想 真想 很想 想 希望 盼着 梦想 渴望');

/**
 * 每天都加班，今天又打车七十四: in the clause of an amount, words that make its payment one of a
 * kind, not what the rule of another clause repeats (a day named there does the same).
 */
export const ONE_TIME = words('又 这次 这回 这一次 这一回 刚刚 刚才 刚');

/** 每个月五号交，房租三千: verbs of paying that make a rule's own clause about the payment. */
export const PAYING = words('交 缴 付 花 充 买 还 存 转 扣 续 订');
