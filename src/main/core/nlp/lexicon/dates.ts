// Day words (src/main/core/nlp/dates.ts). Weekdays, months and years are grammar with numbers
// and stay there.
import { words } from './words';

/** Days from today. */
export const RELATIVE_DAYS: Readonly<Record<string, number>> = {
  大前天: -3,
  前天: -2,
  前日: -2,
  前晚: -2,
  昨天: -1,
  昨日: -1,
  昨儿: -1,
  昨晚: -1,
  昨早: -1,
  昨夜: -1,
  今天: 0,
  今日: 0,
  今儿: 0,
  今早: 0,
  今晚: 0,
  今晨: 0,
  明天: 1,
  明日: 1,
  后天: 2,
  大后天: 3,
  前儿: -2,
  大前儿: -3,
};

/** Holidays on a fixed solar date [month, day]; lunar ones (春节, 中秋) move every year and are left out. */
export const HOLIDAYS: Readonly<Record<string, readonly [number, number]>> = {
  元旦: [1, 1],
  情人节: [2, 14],
  妇女节: [3, 8],
  劳动节: [5, 1],
  五一: [5, 1],
  儿童节: [6, 1],
  六一: [6, 1],
  国庆节: [10, 1],
  国庆: [10, 1],
  十一: [10, 1],
  双十一: [11, 11],
  双11: [11, 11],
  双十二: [12, 12],
  双12: [12, 12],
  平安夜: [12, 24],
  圣诞节: [12, 25],
  圣诞: [12, 25],
};

/** 点外卖, 点餐: 点 followed by one of these is an order, not o'clock. */
export const NOT_HOUR_WORDS = words('外卖 餐 菜 心 单');

/** 3号线, 5号楼, 10号站: 号 followed by one of these is a number, not a day of the month. */
export const NOT_DAY_WORDS = words('线 楼 房间 门 床 店 桌 口 位 机 车 厅 馆 院 柜 窗 台 站');

/** 早上包子五块中午盖饭二十: parts of a day, which start the next item after an amount. */
export const DAY_PARTS = words('早上 早晨 上午 中午 下午 傍晚 晚上 夜里 凌晨');
