// The rules a tag follows before it is sent, as the ledger's tagName schema applies them, so
// the chips show what will be stored: a leading # dropped, 20 characters, 20 tags a row.
export const MAX_TAG_LENGTH = 20;
export const MAX_TAGS = 20;

/** 「#出差 」 → 「出差」. */
export function normalizeTag(text: string): string {
  return text
    .trim()
    .replace(/^[#＃]+/, '')
    .trim();
}

/** Typed text split where the user put a separator (，, 、 or a comma). */
export function splitTags(text: string): string[] {
  return text.split(/[,，、]/);
}

export type TagAdd = { ok: true; tags: string[] } | { ok: false; error: string };

/** `tags` with `text` added at the end; a tag already there is not added twice. */
export function addTag(tags: readonly string[], text: string): TagAdd {
  const tag = normalizeTag(text);
  if (!tag || tags.includes(tag)) return { ok: true, tags: [...tags] };
  if (tag.length > MAX_TAG_LENGTH) return { ok: false, error: `标签最多${MAX_TAG_LENGTH}个字` };
  if (tags.length >= MAX_TAGS) return { ok: false, error: `一笔最多${MAX_TAGS}个标签` };
  return { ok: true, tags: [...tags, tag] };
}

/** The suggestions for what is typed: known tags not yet chosen, those containing the text, most used first. */
export function tagSuggestions(known: readonly string[], chosen: readonly string[], text: string, limit = 6): string[] {
  const typed = normalizeTag(text);
  return known.filter((t) => !chosen.includes(t) && t !== typed && t.includes(typed)).slice(0, limit);
}

/** Whether two tag lists differ (order counts: the row keeps the order given). */
export function tagsChanged(a: readonly string[], b: readonly string[]): boolean {
  return a.length !== b.length || a.some((t, i) => t !== b[i]);
}
