// How an import is named to the user: the bill's format and encoding, why lines are left out,
// and the toast after it is written. Pure; the maps are total records, so a new format,
// encoding or skip reason fails typecheck until it has its words here.
import type { ImportFormat, ImportOutcome, ImportPreview, SkipReason } from '@shared/ipc/ledger';

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  suikouji: '随口记 CSV',
  alipay: '支付宝账单',
  wechat: '微信支付账单',
  jd: '京东账单',
  meituan: '美团账单',
};

export const ENCODING_LABELS: Record<ImportPreview['encoding'], string> = {
  'utf-8': 'UTF-8',
  gbk: 'GBK',
  xlsx: 'Excel 工作簿',
};

export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  closed: '已关闭或失败的交易',
  withdrawal: '提现、充值',
  wealth: '零钱通、余额宝、理财',
  repayment: '信用卡、花呗、白条还款',
  'own-transfer': '自己账户间转账',
  neutral: '其他不计收支',
};

/** 「已导入 3 笔，已导入过的 1 笔未重复导入，略过 2 笔」: the parts that are zero are left out. */
export function importOutcomeText(outcome: Pick<ImportOutcome, 'imported' | 'duplicates' | 'deleted' | 'skipped'>): string {
  let text = `已导入 ${outcome.imported} 笔`;
  if (outcome.duplicates > 0) text += `，已导入过的 ${outcome.duplicates} 笔未重复导入`;
  if (outcome.deleted > 0) text += `，已删除过的 ${outcome.deleted} 笔未导入`;
  if (outcome.skipped > 0) text += `，略过 ${outcome.skipped} 笔`;
  return text;
}
