// Words of an offline correction (src/main/core/nlp/correction.ts): the verbs that change a field,
// the field names, the words that point at items, and those that add one. Where one word is the
// start of another, the longer goes first: the tables are tried in order.
import { words } from './words';

/** 金额改成85, 改为收入: the change verbs, after the two with a grammar of their own (备注写成…, 改名叫…). */
export const CHANGE_VERBS = words(`
  叫做 改成 改为 改到 改作 换成 换为 变成 修改为 修改成 更改为 更正为 应该是 应该为 应是 应为 写成 记成 记为 调成 调整为 设为 设成 改 是 为
`);

/** Before 是: a conjunction (就是, 但是, 还是), not 'it is'. */
export const SHI_CONJUNCTIONS = words('就 但 可 只 还 要 总 于 若 凡 或');

/** Before a value: the speaker denies it (不是30, 没花). */
export const NEGATIONS = words('不 非 没 不是');

/** 备注写成午饭, 名字叫…: after these, 写/叫/填 change the description. */
export const DESCRIPTION_FIELDS = words('描述 备注 名称 名字 内容 说明');

/** The field that words before the verb name, checked in this order. */
export const FIELD_WORDS = {
  amount: words('金额 钱数 价格 价钱 多少钱 数额 费用'),
  category: words('分类 类别 种类 品类'),
  date: words('日期 时间 哪天 日子 那天'),
  description: [...DESCRIPTION_FIELDS, ...words('用途 项目 事项 改名 叫做')],
  type: words('类型 收支'),
};

/** 金额改成85，日期改成昨天: a field name that opens a clause of its own. */
export const CLAUSE_FIELDS = words('金额 钱数 价格 价钱 数额 分类 类别 日期 时间 描述 备注 名称 类型');
/** 金额改成85和日期…: what may join such clauses. */
export const CLAUSE_JOINERS = words('和 还有 然后 再 并且 另外 把');
/** 日期改…, 类型是…: a field name followed by one of these starts a clause even without a comma. */
export const CLAUSE_VERBS = words('改 换 是 应该 为 写 调 变');

/** 金额 and the like say which field, not which item: cut from the words that name an item. */
export const FIELD_NAMES_IN_REFERENCE = words('金额 分类 类别 日期 时间 描述 备注 类型');

/** Left over from 改一下, 改成这样吧: no description. */
export const NO_WORDS = words('一下 下 一点 点 这样 那样 这个 那个 吧 呢 啊');

/** 都改成昨天: every item. */
export const ALL_ITEMS = words('都 全部 全都 所有 每笔 每一笔 统统');
/** 奶茶和电影都…: between references to several items. */
export const REFERENCE_JOINERS = words('和 跟 与 以及 还有 及 、');
/** 外卖那笔: after the words that name an item. */
export const REFERENCE_SUFFIXES = words('那笔 这笔 那一笔 这一笔 那个 这个 那项 那条');
/** Around the words that name an item, and no part of them. */
export const REFERENCE_LEADING_FILLERS = words('嗯 啊 哦 呃 那个 这个 那 就 把 将 给 对了 不对 错了 然后');
export const REFERENCE_TRAILING_FILLERS = words('的 了 啊 吧 呢 不对');
/** 第一笔和第二笔都改成昨天: an ordinal followed only by these shares the next one's change. */
export const ORDINAL_JOINERS = words('和 跟 与 及 以及 还有 、 , ， 还 也');

/** 还有第二笔改成30, 另外打车那笔是25: after 还有/另外, a change of a pending item, not a new one. */
export const CHANGE_WORDS = words('改 换成 变成 应该 那笔 这笔 那一笔 这一笔 不对 错了 不是');

// Relative amounts (correction.ts, amountChange): the words right before the amount say whether it
// is the new amount (改成35) or a difference to the item's amount (加10块, 多算了3块).

/**
 * 加10块, 再加五块, 加上运费8块, 加个运费8块: that much more. Longer words first; 多加 is 'add …
 * extra'. The words of two or more characters may have the thing added before the amount; 加 may
 * not (加油200 is no raise of 200).
 */
export const AMOUNT_ADD_VERBS = words('还要加 再加上 再加个 再加 加上 加个 追加 添加 增加 外加 多加 加了 加');
/** 减5块, 减去, 扣掉: that much less. Not 扣了 (扣了5块: what was charged, the new amount). */
export const AMOUNT_SUBTRACT_VERBS = words('减去 减掉 减了 减 扣掉 扣除 扣去 去掉 抹掉 抹去 扣');
/**
 * 多记了十块, 少算了10, 多收了, 多扣了: the card counted that much too many (多 → less) or too
 * few (少 → more). 多算了 is 'charged or recorded too much' alike; 多加 needs its 了 (多加了 →
 * less), since 多加10块 says 'add 10 extra'.
 */
export const MISCOUNT_VERBS = words('记 算 写 录 输 填 报 收 扣');
/** 多花了3块: the speaker spent that much more than the card says (少花了: less). */
export const SPENDING_VERBS = words('花');
/**
 * 多付了5块, 多给了5块: 'I paid 5 more than the card says' (→ more) as much as 'I overpaid 5'
 * (an error, got back or not: → less). A speaker may mean either, so the amount is left as it is.
 */
export const AMBIGUOUS_PAYMENT_VERBS = words('付 给 交');
/** 第二笔贵了3块, 涨了: it cost that much more than the card says; after 记/算 (记贵了) the card is too high. */
export const PRICE_UP = words('贵了 贵 涨了 涨');
/** 便宜了5块, 优惠了, 降了: it cost that much less; 记便宜了: the card is too low. */
export const PRICE_DOWN = words('便宜了 便宜 优惠了 优惠 降了 降');
/** 第二笔退了5块, 返现: that much came back, so it cost that much less. */
export const MONEY_BACK = words('退回了 退回 退了 返了 返现');
/** 差不多四十, 至少30: a 多/少 that estimates, not one that changes the amount (都多10块). */
export const ESTIMATE_WORDS = words('差不多 至少 最少 最多 至多 多少 不少 好多 很多 许多 更多 更少');

/** 嗯, 对了, 然后: before an append verb. */
export const APPEND_LEAD = words('嗯 哦 啊 那 对了 然后 我');
/** 还有一笔…, 漏记了…: a new item follows. */
export const APPEND_VERBS = words('还有 再加 再记 再来 另外 追加 添加 还要记 还得记 漏了 漏记了 漏记');
/** 补一笔, 加一个: these start words too (补牙, 加油), so they need ONE_ITEM after them. */
export const SHORT_APPEND_VERBS = words('补 加 再 补记');
export const ONE_ITEM = words('一笔 一个 一项 一条');
/** 还有一笔, 再来个: the count an append verb may take. */
export const APPEND_COUNTS = [...ONE_ITEM, ...words('笔 个')];
/** 再加五块 with nothing else raises the amount; it is no new item. */
export const RAISE_VERBS = words('再加 追加 添加');
