// Words of the confirmation dialogue that are not Layer-1 intents (src/main/core/voice/dialogue.ts):
// the answer to 「还需要修改吗？」, a reference to a numbered draft, and undo of a save.
import { anyOf, words } from './words';

const HESITATIONS = words('嗯 哦 噢');
const NOTHING_TO_CHANGE = words('没有 没了 没有了 没啦 没有啦 不用 不用了 不需要 不需要了 不用改了 不改了 没有要改的 没有要改的了');
const SOFTENERS = words('了 啦 吧');

/**
 * 「没有了」「不用改了」 after 「还需要修改吗？」: nothing more to change → confirm the card. Asked
 * anything else, the same words are the exit 「没有了」 or the cancel 「不需要了」.
 */
export const NO_MORE_CHANGES = new RegExp(`^${anyOf(HESITATIONS)}?${anyOf(NOTHING_TO_CHANGE)}${anyOf(SOFTENERS)}?$`);

const ORDINAL_NUMERALS = '0-9一二两三四五六七八九十';
/** ASR often hears 笔 as 比 or 币. */
const ITEM_COUNTERS = words('笔 比 币');
const ITEM_POINTERS = words('最后 头 中间 这 那');

/** 「第二笔」「最后一笔」「那笔」: the words point at a draft on a card. */
export const ITEM_REFERENCE = new RegExp(`第\\s*[${ORDINAL_NUMERALS}]+\\s*${anyOf(ITEM_COUNTERS)}|${anyOf(ITEM_POINTERS)}一?${anyOf(ITEM_COUNTERS)}`);

/** 中间那笔, 中间的: the middle item of the card (src/main/core/nlp/ordinals.ts). */
export const MIDDLE_WORDS = words('正中间 最中间 中间');
/**
 * The last character of a word after which 中间 may point at an item (把中间的, 删掉中间那笔,
 * 确认中间的, 还有中间那个); after any other Chinese character it is part of a thing (电影中间的座位).
 */
export const MIDDLE_LEADS = words('把 将 对 给 是 就 还 有 了 掉 除 消 认 定 留 删 要 改 和 跟 与 及 下 先 再 那 这 嗯 啊 哦 呃 额 吧 呢');

const UNDO_VERBS = words('撤销 撤回 撤消');
/** 刚才 … 的 … 保存: the three optional parts of a phrase that names the earlier save. */
const UNDO_EARLIER = words('刚才 刚刚 上一次 上次');
const UNDO_LINKS = words('的 那');
const UNDO_SAVED = words('保存 记录 那笔 那几笔 一笔 上一笔');
const UNDO_VERB = `${anyOf(UNDO_VERBS)}(?:一下)?`;

/**
 * A bare 「撤销」「撤回一下」「撤消吧」. With a card shown it cancels the card (Layer 1 reads it so);
 * with none it undoes the last save.
 */
export const UNDO_BARE = new RegExp(`^${UNDO_VERB}吧?$`);

/**
 * 「撤销刚才的保存」「撤回上一次记录」「撤销上一笔」「撤销那笔」: the words name the earlier save, so
 * they never mean the card on screen — with one shown the user is asked to settle it first.
 */
export const UNDO_SAVE_REFERENCE = new RegExp(`^${UNDO_VERB}(?!吧?$)${anyOf(UNDO_EARLIER)}?${anyOf(UNDO_LINKS)}?${anyOf(UNDO_SAVED)}?吧?$`);
