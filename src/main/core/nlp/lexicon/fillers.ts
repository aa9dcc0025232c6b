// Words that belong to no item (src/main/core/nlp/description.ts, parse.ts): what is cut from an
// item's words to leave its description (昨天打车花了28块5 → 打车), and what separates two items.
import { words } from './words';

/** Cut wherever they stand, in this order (花费了 before 花费). */
export const FILLERS_ANYWHERE = words(`
  花费了 花了 花费 一共 总共 共计 合计 大概 大约 差不多 左右 不是 已经 早上 上午 中午 下午 晚上 傍晚 凌晨 刚才 刚刚 块钱 人民币
`);

/** Cut from the start, the longer words first. */
export const FILLERS_LEADING = words(`
  帮我记一下 帮我记一笔 帮我记 记一笔 记一下 记录一下 记账 还有一笔 再加一笔 再记一笔 加一笔 另外 刚 支出 收入 开销 花销 收到了
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
