// Words of the confirmation dialogue that are not Layer-1 intents: the answer to
// 「还需要修改吗？」, a reference to a numbered draft, and undo of a save.

/** 「没有了」「不用改了」 after 「还需要修改吗？」: nothing more to change → confirm the card. */
export const NO_MORE_CHANGES = /^(嗯|哦|噢)?(没有|没了|没有了|没啦|没有啦|不用|不用了|不需要|不需要了|不用改了|不改了|没有要改的了?)(了|啦|吧)?$/;

/** 「第二笔」「最后一笔」: the words point at a draft on a card (ASR often hears 笔 as 比/币). */
export const ITEM_REFERENCE = /第\s*[0-9一二两三四五六七八九十]+\s*[笔比币]|(最后|头|这|那)一?[笔比币]/;

/** 「撤销」「撤销刚才的保存」: undo of the last save (with no card shown). */
export const UNDO_WORDS = /^(撤销|撤回|撤消)(一下)?(刚才|上一次|上次|刚刚)?(的|那)?(保存|记录|那笔|那几笔|一笔)?$/;
