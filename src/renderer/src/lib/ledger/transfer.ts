import type { SuikoujiApi } from '@shared/ipc/index';
import type { ImportPreview, LedgerFilter } from '@shared/ipc/ledger';

const CHUNK_ROWS = 20_000;

/**
 * Exports the filtered rows in chunks so a large ledger shows progress; resolves to the
 * whole CSV (UTF-8 with BOM) as a Blob ready to download.
 */
export async function exportCsvBlob(
  api: SuikoujiApi,
  filter: LedgerFilter,
  onProgress: (done: number, total: number) => void,
): Promise<{ blob: Blob; rows: number }> {
  const parts: string[] = [];
  let done = 0;
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const result = await api.exportCsv(after ? { filter, after, limit: CHUNK_ROWS } : { filter, limit: CHUNK_ROWS });
    if (!result.ok) throw new Error(result.error.message);
    if (!after) total = result.value.total;
    parts.push(result.value.text);
    done += result.value.rows;
    onProgress(done, total);
    if (!result.value.cursor) break;
    after = result.value.cursor;
  }
  return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }), rows: done };
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // String.fromCharCode takes an argument list; chunks keep it under the engine's limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export const FORMAT_LABELS: Record<ImportPreview['format'], string> = {
  suikouji: '随口记 CSV',
  alipay: '支付宝账单',
  wechat: '微信支付账单',
};
