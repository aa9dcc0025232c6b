// Words of tags said with an entry (src/main/core/nlp/tags.ts): 打车三十五标签出差, 标签是出差,
// 打上出差标签, #出差, 标签出差和报销, 标记育儿, 记到团建里, 算新房的.
import { words } from './words';

/** The nouns that name a tag (标签出差, 标记育儿); # in typed text works the same. */
export const TAG_NOUNS = words('标签 标记');

/** After the noun: what it is made of or done to it, not a tag (买标签纸五块, 标记笔, 标记好了). */
export const NOT_TAG_AFTER = words('纸 机 贴 打印 本 笔 过 好 完 错');

/** 标签是出差, 标签：出差, 标记成育儿: between the noun and the tag. */
export const TAG_NAMING = words('一下 是 为 成 叫 选 : ：');

/** 打上出差标签, 加个报销的标签: before the tag when the noun comes after it. */
export const TAG_VERBS = words('打上 贴上 加上 标上 带上 打个 贴个 加个 标个');

/** 算作团建, 记为育儿: a verb that files the entry under the tag said after it. */
export const TAG_AS = words('归类为 算作 算为 记作 记为 归为');

/**
 * 记到团建里, 算在新房上, 计入团建: a verb that files the entry into what follows. The 到/在/进
 * forms need a closing word (CLOSERS); 入 runs to the end of the clause.
 */
export const FILING_VERBS = words('归类到 记到 记在 记进 记入 计入 算到 算在 算进 算入 归到 归在 归进 归入 划到 划在 划入');

/** 记到团建里, 算在新房头上, 记到出差那边: after what an entry is filed into. Longer words first. */
export const FILING_CLOSERS = words('里面 里头 底下 下面 名下 头上 上面 那边 这边 那里 账上 账里 账下 里 下 上');

/** 记在账上, 记到本子上: the book itself is filed into, no tag; the words are still no item's words. */
export const THE_BOOK = words('账本 账 本子 小本本 本本 心');

/** 记到餐饮分类里, 记到招行卡里: what is filed into is a category or an account, not a tag. */
export const NOT_TAG_ENDINGS = words('分类 类别 类目 账户 账本 卡');

/**
 * 算新房的: before 算, a character that makes 算 part of another word (打算, 划算, 不算, 预算, 就算,
 * 结算), so nothing is filed.
 */
export const NOT_FILING_BEFORE = words('打 划 不 没 就 也 还 总 计 清 结 估 换 核 盘 预 合 推 演 运 心 口 暗 验 测 精 胜 失 折 加 减 乘 除 能 可 该');

/**
 * 算了, 算一下, 多算了3块, 算上运费, 算下来, 算好的: right after 算, words of counting, not of filing.
 * Single characters, as they stand first in what would be the tag.
 */
export const NOT_FILED_START = words(
  '了 上 下 起 错 进 一 是 得 着 过 完 清 账 钱 数 术 法 命 盘 个 不 没 也 都 还 就 成 多 少 好 啥 什 哪 谁 这 那',
);

/** 算我的, 算他们请的: whose treat, not a tag (said first in what would be the tag). */
export const PRONOUNS = words('我们 你们 他们 她们 咱们 大家 自己 别人 人家 我 你 您 他 她 它 咱');

/** 算比较便宜的: degree words before an adjective. Longer words first. */
export const DEGREE_WORDS = words('比较 相当 非常 特别 有点 有些 超级 挺 很 最 蛮 太 更 真');

/** 算便宜的, 算正常的: an appraisal of the price, not a tag. */
export const APPRAISALS = words(`
  便宜 实惠 划算 值得 值 贵 正常 合理 公道 良心 普通 一般 离谱 夸张 奢侈 省钱 高 低 大 小 快 慢 新 旧 多 少
`);

/** 算新房的开销: nouns after 的 that still belong to the filing, no item's words. */
export const FILED_NOUNS = words('开销 花销 支出 费用 花费 账 钱');

/** 标签出差和报销: between two tags. */
export const TAG_JOINERS = words('以及 和 跟 与 及 、');

/** 标签是出差的: particles that end the words, no part of the tag. */
export const AFTER_TAG = words('的 了 吧 啊 呀 呢 哦 嘛');
