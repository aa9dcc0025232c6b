// Patterns tried only where a match can start. A global regex tries every position of the text,
// and most characters of an utterance start none of its phrases; a table of the characters that
// can start one lets a plain loop skip the rest, and the pattern runs sticky where one stands.

/** A table by UTF-16 code of the characters a match can start with. */
export function startTable(chars: Iterable<string>): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

/** Whether any character of the text is in the table. */
export function hasStart(text: string, starts: Uint8Array): boolean {
  for (let i = 0; i < text.length; i++) if (starts[text.charCodeAt(i)] === 1) return true;
  return false;
}

/**
 * The next match of a sticky pattern at or after its lastIndex, tried only at characters in the
 * table: what a global pattern's exec finds (the loop may move lastIndex between calls, as with
 * exec), provided the table holds every character a match can start with.
 */
export function execFrom(sticky: RegExp, starts: Uint8Array, text: string): RegExpExecArray | null {
  for (let i = sticky.lastIndex; i < text.length; i++) {
    if (starts[text.charCodeAt(i)] !== 1) continue;
    sticky.lastIndex = i;
    const m = sticky.exec(text);
    if (m !== null) return m;
  }
  sticky.lastIndex = 0;
  return null;
}
