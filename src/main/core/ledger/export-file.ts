// OWNED BY THE EXPORT HELPER — contract only; replace the body.
import type { ExportFormat, LedgerFilter } from '@shared/ipc/ledger';
import type { Ledger } from './ledger';

/** 随口记_YYYYMMDD_HHmmss.<format> in the user's local time at `now`. */
export function exportFileName(format: ExportFormat, now: Date): string {
  void now;
  return `随口记.${format}`;
}

/** Writes the filtered ledger to `path` (temp file + rename: a failed write leaves no half file); returns the row count. */
export async function writeExportFile(ledger: Ledger, format: ExportFormat, filter: LedgerFilter, path: string): Promise<number> {
  void ledger;
  void filter;
  void path;
  throw new Error(`not implemented: ${format}`);
}
