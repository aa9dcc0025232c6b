/**
 * Tab past the last control of a modal dialog goes to its first, Shift+Tab before the first
 * to its last: focus never leaves the dialog for the page dimmed behind it.
 */
export function wrapTab(event: KeyboardEvent, focusables: readonly HTMLElement[]): void {
  const first = focusables[0];
  const last = focusables.at(-1);
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first?.focus();
  }
}
