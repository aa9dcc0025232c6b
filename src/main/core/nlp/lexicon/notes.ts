// Words about the money rather than the thing (src/main/core/nlp/description.ts): they say where
// the money went, which entry is meant or when it is paid back, and stay out of an item's note.
// 淘宝买鞋那笔退了 → 淘宝买鞋, 出差打车可以报销 → 出差打车, 跟我哥借了两千 → (no note).
import { words } from './words';

/** 淘宝买鞋那笔退了: which entry is meant. Longer words first. */
export const ENTRY_REFERENCES = words('那一笔 这一笔 那笔 这笔');

/** 回头找公司报销: when an expense is paid back, said before the words that say it will be. */
export const LATER = words('回头 到时候 之后 以后 等会儿 等会 晚点 过两天');

/** 帮公司垫付了, 替单位先垫了: the verbs of paying first, after ADVANCED_FOR and whom (lexicon/money-flows.ts). */
export const ADVANCE_VERBS = words('先垫付了 先垫付 先垫了 先垫 提前垫付了 提前垫付 提前垫了 垫付了 垫付 垫支了 垫支 垫资 垫钱 垫了 垫');

/** 商家只退了六十五: who refunds and how much of it, said around a refund's verb. */
export const REFUNDERS = words('商家 卖家 店家 平台 客服');
export const REFUND_ADVERBS = words('只 才 就 又 也 都 给我 给');
/** 退 with its object or how the money came (退款, 退回来, 退给我); a bare 退 only ends its words. Longer words first. */
export const REFUND_WORDS = words('退货款 退押金 退款 退钱 退货 退费 退回来了 退回来 退回了 退回 退给我 退还 退到 退了');

/** 公司把差旅费报了, 出差费报下来了: a reimbursement's own words besides 报销到账 and the like. */
export const REIMBURSED_VERBS = words('报销下来了 报销下来 报下来了 报下来 批下来了 批下来 报销了 报了 报销 打过来 发下来了 发下来');

/** Between the one who pays back and what is paid back: 公司把差旅费报了, 公司给报了. */
export const REIMBURSER_MARKS = words('把 给');

/** The words of a debt besides the person: 借给, 跟…借了, 还我, 收回来. Longer words first. */
export const DEBT_WORDS = words(`
  借给了 借给 借出去了 借出去 借出 借来的 借来 借到 借入 借走了 借走 借了 借 还给了 还给 还回来了 还回来 还了 还
  收回来了 收回来 收回了 收回 要回来了 要回来 要回了 要回 欠了 欠 的钱 钱 把 跟 向 从 找 问 给 我的 我 他 她 回来 那里 那边 那儿
`);
