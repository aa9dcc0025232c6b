// How every word table is written: one string of words separated by spaces or line breaks, so
// adding a word is typing it once, and a long table stays a few lines under Prettier.

/** The words of a table, in the order written (the order can matter: see each table). */
export function words(table: string): readonly string[] {
  return table.split(/\s+/).filter((word) => word !== '');
}

const REGEX_SYNTAX = /[.*+?^${}()|[\]\\]/g;

/**
 * A regex source group that matches any of the words, tried in the table's order: where one word
 * is the start of another (记一笔, 记), the earlier one wins.
 */
export function anyOf(list: readonly string[]): string {
  if (list.length === 0) throw new Error('anyOf needs at least one word');
  return `(?:${list.map((word) => word.replace(REGEX_SYNTAX, '\\$&')).join('|')})`;
}
