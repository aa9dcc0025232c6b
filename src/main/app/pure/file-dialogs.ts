// The options of the export and import dialogs as plain data, so they are unit-tested
// without Electron; the shell passes them to dialog.showSaveDialog / showOpenDialog.
import { extname, join } from 'node:path';
import type { ExportFormat } from '@shared/ipc/ledger';

interface FileFilter {
  name: string;
  extensions: string[];
}

const EXPORT_FILTERS: Record<ExportFormat, FileFilter> = {
  xlsx: { name: 'Excel 工作簿', extensions: ['xlsx'] },
  csv: { name: 'CSV 表格', extensions: ['csv'] },
};

/** Offers `suggestedName` in the user's Documents folder, showing only files of the format. */
export function exportDialogOptions(suggestedName: string, format: ExportFormat, documentsDir: string) {
  return {
    title: '导出账本',
    buttonLabel: '导出',
    defaultPath: join(documentsDir, suggestedName),
    filters: [EXPORT_FILTERS[format]],
    properties: ['createDirectory', 'showOverwriteConfirmation'] satisfies ('createDirectory' | 'showOverwriteConfirmation')[],
  };
}

/** 支付宝, 京东 and 美团 export their bills as CSV, 微信 as an Excel workbook. */
export function importDialogOptions() {
  return {
    title: '选择账单文件',
    buttonLabel: '导入',
    filters: [
      { name: '账单（CSV、Excel）', extensions: ['csv', 'xlsx'] },
      { name: '所有文件', extensions: ['*'] },
    ],
    properties: ['openFile'] satisfies 'openFile'[],
  };
}

/**
 * The chosen path with the format's extension: GTK's dialog does not add it when the user
 * types a bare name, and a file without it opens in no spreadsheet program.
 */
export function withExportExtension(path: string, format: ExportFormat): string {
  return extname(path).toLowerCase() === `.${format}` ? path : `${path}.${format}`;
}

/** 打开图片…: the pictures the recognizer reads (HEIC is refused with a line saying how to convert it). */
export function pictureDialogOptions() {
  return {
    title: '选择付款截图或小票照片',
    buttonLabel: '识别',
    filters: [{ name: '图片（PNG、JPEG、WebP）', extensions: ['png', 'jpg', 'jpeg', 'webp'] }],
    properties: ['openFile'] satisfies 'openFile'[],
  };
}
