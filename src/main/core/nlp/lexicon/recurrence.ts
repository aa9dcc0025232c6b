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
