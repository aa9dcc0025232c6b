// Words that belong to no item (src/main/core/nlp/description.ts, parse.ts, split.ts): what is cut
// from an item's words to leave its description (昨天打车花了28块5 → 打车), and what separates
// two items.
import { words } from './words';

/** Cut wherever they stand, in this order (花费了 before 花费). */
export const FILLERS_ANYWHERE = words(`
  花费了 花了 花费 一共 总共 共计 合计 大概 大约 差不多 左右 而是 不是 已经 早上 上午 中午 下午 晚上 傍晚 凌晨 刚才 刚刚 块钱 人民币
`);

/** Cut from the start, the longer words first. */
export const FILLERS_LEADING = words(`
  帮我记一下 帮我记一笔 帮我记 记一笔 记一下 记录一下 记账 还有一笔 再加一笔 再记一笔 加一笔 另外 刚才 刚刚 刚 支出 收入 开销 花销 收到了
  收到 付了 支付了 付款 我们 我 嗯 啊 呃 额 哦 那个 就是 然后 又 的 了 是 在 用
`);

/** Cut from the end, the longer words first. */
export const FILLERS_TRAILING = words(`
  到账了 到账 到了 花了 用了 付了 交了 消费了 消费 支付了 支付 付款 付 收到了 收到 收了 充了 送了 的钱 是 为 了 的 吧 啊 呢 呀
`);

/** When one of these is all that is left, there is no description. */
export const LONE_LEFTOVERS = words('了 的 是 吧 啊 呢 呀 花 付 嗯');

/** 午饭三十还有打车二十: where the first item of an utterance ends. */
export const ITEM_SEPARATORS = words('还有 然后 另外 以及 加上 和 跟 再');

/**
 * 午饭35，还有打车: words that add an item (split.ts). A clause they open is an item of its own even
 * without an amount. Tried in this order, so a longer word goes before its start (还有一笔, 还有).
 */
export const ADDING_CONNECTIVES = words(`
  还有一笔 还有一个 还有个 再加一笔 再记一笔 再来一笔 加一笔 再加上 还有 另外 以及 加上 外加
`);

/**
 * 打车二十然后喝了杯奶茶十八: words of what happened next (split.ts). They end an item that has an
 * amount, but a clause without one is more often part of the same story (打车去公司然后吃饭35).
 */
export const SEQUENCE_CONNECTIVES = words('然后 接着 之后 随后 顺便 首先 其次 最后 再 又');

/** 三十五吧，打车二十: particles right after an amount that still belong to its item. */
export const AFTER_AMOUNT = words('吧 啊 呀 呢 哦 嘛');

/** 嗯，不对，三十五 / 十块那个午饭二十: hesitations, said between items or before taking an amount back. */
export const HESITATIONS = words('那个 嗯 啊 呃 额 哦 噢');

/** 鸡蛋20和牛奶15: right after an amount, these open the next item and are no part of it. */
export const JOINERS_AFTER_AMOUNT = words('并且 而且 同时 和 跟 与 及');

/** 午饭35还买了奶茶15: after an amount, 还 before one of these means "also" (还信用卡 is a payment back). */
export const ALSO_BEFORE = words('买 吃 喝 打 坐 交 充 花 点 去 看 要 用 付 加');

/** 晚饭也是, 晚饭一样: the amount of the item before, again. Longer words first. */
export const SAME_AMOUNT = words('也是这个数 也是这么多 也这么多 也一样 一样多 也是 一样 同样 也');

/** 午饭和晚饭都是35: before an amount, it is the amount of each item named before it. Longer words first. */
export const EACH_AMOUNT = words('分别是 都是 各是 都 各');

/** 午饭和晚饭都是35: between the items that share an amount said once. */
export const PART_JOINERS = words('以及 和 跟 与 及');

/** 都是昨天: after all the items, a day that applies to every one of them. */
export const ALL_ITEMS = words('全都是 全部是 都是 全是 全都 全部 都');
