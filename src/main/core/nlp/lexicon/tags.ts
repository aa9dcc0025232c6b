// Words of tags said with an entry (src/main/core/nlp/tags.ts): 打车三十五标签出差, 标签是出差,
// 打上出差标签, #出差, 标签出差和报销.
import { words } from './words';

/** The noun that names a tag; # in typed text works the same. */
export const TAG_NOUNS = words('标签');

/** After the noun: what it is made of, not a tag (买标签纸五块). */
export const NOT_TAG_AFTER = words('纸 机 贴 打印 本');

/** 标签是出差, 标签：出差: between the noun and the tag. */
export const TAG_NAMING = words('是 为 叫 选 : ：');

/** 打上出差标签, 加个报销的标签: before the tag when the noun comes after it. */
export const TAG_VERBS = words('打上 贴上 加上 标上 带上 打个 贴个 加个 标个');

/** 标签出差和报销: between two tags. */
export const TAG_JOINERS = words('以及 和 跟 与 及 、');

/** 标签是出差的: particles that end the words, no part of the tag. */
export const AFTER_TAG = words('的 了 吧 啊 呀 呢 哦 嘛');
