// Layer 1 of the confirmation dialogue: the phrases an answer is read as (src/main/core/nlp/intent.ts).
// The longest phrase at each point wins; on equal length the earlier kind in this table.
import { words } from './words';

export const PHRASES = {
  /** 嗯, 吧, 全部 …: carries no decision. */
  filler: words(`
    掉 并 并且 后 之后 以后 再 我要 我想 嗯 恩 啊 阿 哦 噢 喔 呃 额 唉 哎 诶 欸 哈 呀 吧 啦 了 的 嘛 呢 呗 哇 吗 那 就 这样 你好
    谢谢 谢了 多谢 辛苦了 好嘞谢谢 那个 这个 请 帮我 给我 麻烦 你 我 一下 把 都 全部 全都 全 所有 所有的 一起 统统 通通 整个 这些
    那些 它 直接 先 也 吧好 然后 哎呀 呐 哟 喂 嘿 么 还是 让我
  `),
  confirm: words(`
    通过 保留 留着 留下 记账 就这么着 就这么办 就这么定 照这样记 没有错 没错误 没有不对 没什么不对 没有其他问题 没其他问题
    没别的问题 没有问题了 好吧 那好吧 不错 挺好 很好 对头 一点问题没有 一点问题都没有 没有问题 没任何问题 完全没问题 太好了 可以了
    没毛病的 记了 记上吧 就这么定了 没啥问题 没什么问题 确认 确定 对 是的 是 是对的 没错 没问题 可以 可以的 行 好 好的 好了 好嘞
    就这样 就这么记 这样就行 这样可以 记上 记吧 记下 记下来 记录 保存 提交 入账 ok okay yes 正确 没毛病 妥 同意 无误 确认无误 对对
    嗯对 中 行了 完全正确 就它 就这些记上 都对 全对 记好 收下 好滴 好哒 嗯嗯对
  `),
  cancel: words(`
    不算 不作数 重复了 记重了 重复的 记重复了 多余 多余了 不用记 不需要记 不需要记了 不必记 不用记录 不需要记录 不用记录了 取消掉
    删除掉 清除 清掉 不保存 别保存 不要保存 不用保存 不存了 不录了 不记录了 不要记了 不要记 重新说 重新记 重新录 重说 重新开始
    重记 取消 不要了 不要 算了 不记了 别记了 不用记了 不想记了 不记 别记 删掉 删了 删除 删 去掉 去除 划掉 作废 撤销 撤回 撤消 放弃 清空
    重来 重新来 不需要了 都不要 丢掉 扔掉 拿掉 移除 抹掉
  `),
  exit: words(`
    说完了 说完 没啦 暂时没有了 暂时没有 暂时就这些 暂时就这样 没别的了 没别的 没有别的了 没有别的 别的没了 没其他的了
    没有其他的了 没其他了 退出 结束 没了 没有了 没有 拜拜 再见 关闭 停止 不说了 关掉 bye 结束记账 退出记账 完事了 完事 下次再说
    就这些 就这么多 就这些了 先这样 今天就到这
  `),
  continue: words(`
    还有别的 还有几笔 还有要记的 还有几个 接着来 还没说完 我还要记 还有 继续 再记一笔 再来一笔 还有一笔 继续记 接着记 下一笔 再记
    还要记 再来 接着 继续记账 还要 再加一笔 还没完 我还有 再说一笔 还有呢 还要记一笔 还有一个 再记一个 再来一个 还要再记 接着说
    下一个 再加一个 再加 再说一个 再补一笔 再补一个 补一笔 补一个 再添一笔 加一笔 加一个 还有一条 还有一项 还有一样 还有个
    还有东西 还要说 我还要说 没说 没说完 没讲 没讲完 还没讲完 漏了一笔 漏了一个 漏记了 落了一笔 忘了说 忘说了 还差一笔 还差一个
    等等 等一下 等下 等会 等会儿 等一会 等一会儿 等我一下 慢着 慢点 慢一点 稍等 稍等一下 稍等下 且慢 停一下 先等等 别急 不急
    别着急 不着急 看看 看一下 再看看 想想 想一想 再想想 还有个东西 放着 搁着 先放一放
  `),
  /** 不对, 错了, 不确认: something must change → Layer 2. */
  objection: words(`
    有问题 有点问题 有错 有点不对 不太对劲 不对 不是 错了 错 不确认 不确定 不行 不可以 不好 不正确 有误 搞错 搞错了 弄错 弄错了
    改 修改 改一下 应该 没对 不太对 好像不对 别确认 不要确认
  `),
  /** 这笔, 那一笔: one item, but which one only a card of one item tells. */
  single: words('这笔 那笔 这一笔 那一笔 这条 那条 这项 那项'),
  /** 不改了: a change was declined, which leans to confirm. */
  declined: words(`
    不要删 别删 不删 不用删 不要删除 别删除 不要去掉 别去掉 不要取消 别取消 不用取消 不取消 不改了 不改 不用改 不用改了 不需要改
    不需要改了 不需要修改 不用修改 不修改 不用再改 不要改 不要改了 没什么要改 没什么要改的 不用动 不用了 不需要 不用 没有要改的
  `),
};

export type PhraseKind = keyof typeof PHRASES;

// Holding the card: 先别保存, 别急着确认, 等会儿再存, 先别删 keep it as it is for now — never a
// cancel or a confirm. intent.ts joins each lead to each verb. 等等 / 慢着 / 稍等 alone are in
// `continue` above: the card stays and the next words are heard.
const SAVE_VERBS = words('保存 存 存上 确认 提交 入账');
const DROP_VERBS = words('删 删掉 删除 取消 去掉');
/** 记 is the entry itself: 先不记 / 先别记了 refuse it (cancel); only the unhurried words hold it. */
const RECORD_VERBS = words('记 记上 记账 记录');

/** 先别保存, 暂时不要确认, 先别删: the action put off, not refused (别保存 / 不保存 alone cancel). */
export const HOLD_NOT_YET = {
  leads: words('先别 先不 先不要 先不用 先甭 暂时别 暂时不 暂时不要 暂时先别 暂且不 还不要 还别 还先别'),
  verbs: [...SAVE_VERBS, ...DROP_VERBS],
};
/** 别急着保存, 不着急记: no hurry. */
export const HOLD_UNHURRIED = {
  leads: words('别急着 先别急着 不急着 先不急着 别着急 不着急 不用急着 别忙着 先别忙着 不忙着'),
  verbs: [...SAVE_VERBS, ...DROP_VERBS, ...RECORD_VERBS],
};
/** 等会儿再存, 晚点再确认: a later time, then 再 and the verb. */
export const HOLD_LATER = {
  leads: words('等会 等会儿 等一会 等一会儿 待会 待会儿 过会 过会儿 一会 一会儿 晚点 晚些 回头 稍后 等下 等一下 等等 之后 后面'),
  verbs: [...SAVE_VERBS, ...DROP_VERBS, ...RECORD_VERBS],
};

/** Words that send a leftover answer to Layer 2 as a correction rather than new input. */
export const CORRECTION_CUES = words('改 应该 不对 不是 错 而不是 换成 变成 那笔 那个 这笔 第');
