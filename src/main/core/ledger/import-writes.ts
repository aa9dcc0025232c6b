import type { ImportChoices, ImportRowStatus } from '@shared/ipc/ledger';

/** The rows the import writes: new ones the user left ticked, and deleted ones ticked again. */
export function writtenRows(status: readonly ImportRowStatus[], choices: ImportChoices = {}): (i: number) => boolean {
  const exclude = new Set(choices.exclude ?? []);
  const restore = new Set(choices.restore ?? []);
  return (i) => (status[i] === 'new' ? !exclude.has(i) : status[i] === 'deleted' && restore.has(i));
}
