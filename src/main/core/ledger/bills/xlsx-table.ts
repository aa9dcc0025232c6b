// TEMPORARY STUB (replaced by the xlsx branch)
import type { TableRow } from './table';
export function isXlsx(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b;
}
export async function readXlsxTable(_bytes: Uint8Array): Promise<TableRow[]> {
  throw new Error('stub');
}
