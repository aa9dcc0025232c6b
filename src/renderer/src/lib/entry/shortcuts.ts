// The main window's own shortcuts: Ctrl+N (Cmd+N) opens 记一笔 from any page; Ctrl+Z undoes
// and Ctrl+Shift+Z / Ctrl+Y redo the ledger's last change outside text fields.

export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

const TEXT_FIELD = 'input, textarea, select, [contenteditable="true"]';

export function isNewEntryKey(event: ShortcutKey): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'n';
}

/** 'undo' / 'redo' for the history keys pressed outside a text field (there they are the field's own). */
export function historyKey(event: ShortcutKey): 'undo' | 'redo' | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  const step = key === 'z' ? (event.shiftKey ? 'redo' : 'undo') : key === 'y' && !event.shiftKey ? 'redo' : null;
  if (!step) return null;
  const target = event.target;
  if (typeof Element !== 'undefined' && target instanceof Element && target.closest(TEXT_FIELD)) return null;
  return step;
}
