// Every sentence the orchestrator speaks, in one place, so the wording the specs fix
// (voice-batch-transaction 多笔 TTS 播报, voice-correction-dialogue 纠正应用与反馈) is tested once.
import type { DraftBatch } from '@shared/draft-batch';
import { budgetAlertText } from '@shared/budget-text';
import type { LedgerQuery, ParseResult, SessionSummary, TransactionType } from '@shared/domain';
import type { BudgetAlert, BudgetLine, BudgetStatus } from '@shared/ipc/ledger';
import { formatFen, formatYuan, yuanToFen } from '@shared/money';
import type { BudgetQuery } from '../nlp/index';
import { flowPhrase, savedSentence, type SavedRow } from '@shared/flow-text';
import { recurrenceLabel, type RecurringRuleInfo } from '@shared/recurrence';
import { monthDayText } from '@shared/time';

const TYPE_LABEL: Record<TransactionType, string> = { EXPENSE: '支出', INCOME: '收入', TRANSFER: '转账' };

export function typeLabel(type: TransactionType): string {
  return TYPE_LABEL[type];
}

/** Spoken amount: integers without decimals, otherwise two decimals (12 → 12, 12.5 → 12.50). */
export function amountText(amount: number | null): string {
  return amount === null ? '未知金额' : formatYuan(amount);
}

function categoryText(result: ParseResult): string {
  return result.category ?? '未分类';
}

/** What the user calls an item: its own words, else what its money did (借给小李), else its category. */
function itemName(result: ParseResult): string {
  return result.description || (result.flow ? flowPhrase(result.flow, result.counterparty) : '') || result.category || '';
}

/** 「支出60元，餐饮」: the core of every read-back; 「打车，金额未知」 while the amount is missing. */
export function itemText(result: ParseResult): string {
  if (result.amount === null) return `${itemName(result) || categoryText(result)}，金额未知`;
  if (result.flow) {
    // 「借给小李1000元」「退款300元，购物，退的是2月1日淘宝买鞋」: what the money did, not 转账/收入.
    const what = `${flowPhrase(result.flow, result.counterparty)}${amountText(result.amount)}元`;
    const link = result.linkNote ? `，${result.linkNote}` : '';
    return result.flow === 'refund' ? `${what}，${categoryText(result)}${link}` : `${what}${link}`;
  }
  const pending = result.reimbursable ? '，待报销' : '';
  return `${typeLabel(result.type)}${amountText(result.amount)}元，${categoryText(result)}${pending}${extrasText(result)}`;
}

/** 「，每月5日，标签出差」: what a sentence said beyond the entry, so the user hears it was understood. */
function extrasText(result: ParseResult): string {
  const rule = result.recurrence ? `，${recurrenceLabel(result.recurrence)}` : '';
  const tags = result.tags?.length ? `，标签${result.tags.join('、')}` : '';
  return rule + tags;
}

/** The answer to 「小李还欠我多少」; balanceFen null: no one of that name in the books. */
export function debtAnswer(name: string, balanceFen: number | null): string {
  if (balanceFen === null) return `没有找到和${name}的借贷记录。`;
  if (balanceFen > 0) return `${name}还欠你${formatFen(balanceFen)}元。`;
  if (balanceFen < 0) return `你还欠${name}${formatFen(-balanceFen)}元。`;
  return `你和${name}之间已经两清了。`;
}

/** 「第1笔打车多少钱？」: the question for an item that has no amount yet. */
export function askAmount(number: number, result: ParseResult, batchSize: number): string {
  return `${batchSize > 1 ? `第${number}笔` : ''}${itemName(result)}多少钱？`;
}

/** The question for the first item still missing its amount, or '' when every item has one. */
export function amountQuestion(batch: DraftBatch): string {
  const missing = batch.missingAmountItems[0];
  return missing ? askAmount(batch.displayNumber(missing.index), missing.result, batch.size) : '';
}

/**
 * Read-back of a fresh batch, adapted to its size (1 / 2–5 itemised / 6–10 summary). With an
 * amount missing it ends with the question for it instead of asking to confirm.
 */
export function readBack(batch: DraftBatch): string {
  const items = batch.items;
  const question = amountQuestion(batch);
  if (items.length === 1) return question ? `${itemText(items[0]!.result)}。${question}` : `记录${itemText(items[0]!.result)}，确认吗？`;
  const ask = question || (items.length <= 5 ? '请确认或修改。' : '请查看详情后确认。');
  if (items.length <= 5) {
    const parts = items.map((item, i) => `第${i + 1}笔，${itemText(item.result)}`);
    return `识别到${items.length}笔交易：${parts.join('；')}。${ask}`;
  }
  const total = (type: TransactionType) =>
    formatFen(items.reduce((sum, item) => (item.result.type === type && item.result.amount !== null ? sum + yuanToFen(item.result.amount) : sum), 0));
  return `识别到${items.length}笔交易，共${total('EXPENSE')}元支出、${total('INCOME')}元收入。${ask}`;
}

/**
 * After a targeted fix; several fixed items are read one after another. A changed day is
 * said as well, since the type/amount/category read-back alone would not show it landed.
 * A one-item card keeps the single-transaction wording (spec 单笔兼容, design Example 3).
 */
/** After a picture's read-back: which of its drafts may be in the book already (「可能已记过」). */
export function maybeRecorded(batch: DraftBatch): string {
  const numbers = batch.items.filter((item) => item.result.maybeRecorded).map((item) => batch.displayNumber(item.index));
  if (numbers.length === 0) return '';
  if (batch.size === 1) return '这笔可能已经记过了。';
  return `第${numbers.join('、')}笔可能已经记过了。`;
}

/** 「不是鞋子，是衣服那笔」 named no recent expense: the refund keeps its link. */
export function noRefundTarget(what: string): string {
  return `没有找到「${what}」那笔支出，退款的关联没有改，还需要修改吗？`;
}

export function corrected(fixes: readonly { number: number; result: ParseResult; dateChanged?: boolean }[], batchSize: number): string {
  const fixed = (fix: (typeof fixes)[number]) => `${itemText(fix.result)}${fix.dateChanged ? dayText(fix.result.date) : ''}`;
  if (batchSize === 1 && fixes.length === 1) return `已修改为${fixed(fixes[0]!)}，确认吗？`;
  const parts = fixes.map((fix) => `已将第${fix.number}笔修改为${fixed(fix)}。`);
  return `${parts.join('')}还需要修改吗？`;
}

/** 「，2月16日」 for a calendar day, nothing without one. */
function dayText(date: string | null): string {
  return date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? `，${monthDayText(date)}` : '';
}

export function itemCancelled(number: number, result: ParseResult, remaining: number): string {
  const amount = result.amount === null ? '，金额未知' : `${amountText(result.amount)}元`;
  return `已取消第${number}笔（${itemName(result) || categoryText(result)}${amount}）。剩余${remaining}笔待确认。`;
}

export function itemConfirmed(number: number, remaining: number): string {
  return `已确认第${number}笔。剩余${remaining}笔待确认。`;
}

/** 「已追加第3笔，支出15元，餐饮。现在共3笔，请确认或修改。」, or the amount question when one is missing. */
export function appended(items: readonly { number: number; result: ParseResult }[], batch: DraftBatch): string {
  const parts = items.map((item) => `第${item.number}笔，${itemText(item.result)}`);
  return `已追加${parts.join('；')}。现在共${batch.size}笔，${amountQuestion(batch) || '请确认或修改。'}`;
}

/** 「确认」 with an amount still missing: the others are confirmed and wait for it. */
export function confirmedSome(count: number): string {
  return `已确认${count}笔。`;
}

/**
 * 「已保存1笔交易。」 (or, for one money flow, its own words: 「已保存：退款300元，淘宝买鞋。」), then
 * each rule an item said to repeat made (「已设为周期记账：每月5日交房租，下次12月5日。」), then one
 * sentence per budget threshold the save crossed (「餐饮本月已用 82%。」). A rule whose first
 * entry is not due yet saved no row: then only the rule is named.
 */
export function saved(rows: readonly SavedRow[], alerts: readonly BudgetAlert[] = [], rules: readonly RecurringRuleInfo[] = []): string {
  const written = rows.length > 0 || rules.length === 0 ? savedSentence(rows) : '';
  const ruleText = rules.map(
    (rule) => `已设为周期记账：${rule.label}${rule.description || rule.category}${rule.nextDate ? `，下次${monthDayText(rule.nextDate)}` : ''}。`,
  );
  return `${written}${ruleText.join('')}${alerts.map((alert) => `${budgetAlertText(alert)}。`).join('')}`;
}

/** A new session opens with the drafts the last one left unconfirmed. */
export function restored(batch: DraftBatch): string {
  return `上次还有${batch.size}笔没有确认。${readBack(batch)}`;
}

export function saveFailed(reason: string): string {
  return `保存失败，${reason}。请修改后再确认。`;
}

export function noSuchItem(number: number, total: number): string {
  return `没有第${number}笔，现在共${total}笔。`;
}

export function queryAnswer(query: LedgerQuery, totalFen: number, count: number): string {
  const subject = `${query.periodLabel}${query.category ?? ''}${typeLabel(query.type)}`;
  if (count === 0) return `${subject}还没有记录。`;
  return `${subject}共${formatFen(totalFen)}元，${count}笔。`;
}

/**
 * 「本月总预算3000元，已用1200元，还剩1800元。」 The total budget answers for the month, else
 * the sum of the category budgets; a category asked about answers with its own line.
 */
export function budgetAnswer(query: BudgetQuery, status: BudgetStatus): string {
  const month = query.periodLabel;
  if (!status.total && status.lines.length === 0) return `${month}还没有设置预算，可以在“预算”页设置。`;
  if (query.category) {
    const line = status.lines.find((l) => l.category === query.category);
    return line ? `${month}${query.category}预算${budgetFigures(line)}` : `${month}没有设置${query.category}预算，可以在“预算”页设置。`;
  }
  if (status.total) return `${month}总预算${budgetFigures(status.total)}`;
  const budgetFen = status.lines.reduce((sum, l) => sum + l.budgetFen, 0);
  const spentFen = status.lines.reduce((sum, l) => sum + l.spentFen, 0);
  return `${month}各分类预算共${budgetFigures({ budgetFen, spentFen })}`;
}

/** 「3000元，已用1200元，还剩1800元。」 or, past the budget, 「…已用3200元，超出200元。」 */
function budgetFigures(line: Pick<BudgetLine, 'budgetFen' | 'spentFen'>): string {
  const left = line.budgetFen - line.spentFen;
  const rest = left >= 0 ? `还剩${formatFen(left)}元` : `超出${formatFen(-left)}元`;
  return `${formatFen(line.budgetFen)}元，已用${formatFen(line.spentFen)}元，${rest}。`;
}

export function undone(count: number): string {
  return `已撤销刚才保存的${count}笔交易，请确认或修改。`;
}

/** 「本次记了N笔…」: spoken on exit and timeout, also shown on the ended screen. */
export function summary(s: SessionSummary): string {
  const kept = s.unconfirmed?.length ? `还有${s.unconfirmed.length}笔未确认，下次开始记账时继续确认。` : '';
  if (s.savedCount === 0) return `本次没有记账。${kept}再见！`;
  const parts = [`本次记了${s.savedCount}笔`];
  if (s.expenseFen > 0) parts.push(`支出${formatFen(s.expenseFen)}元`);
  if (s.incomeFen > 0) parts.push(`收入${formatFen(s.incomeFen)}元`);
  if (s.transferFen > 0) parts.push(`转账${formatFen(s.transferFen)}元`);
  return `${parts.join('，')}。${kept}再见！`;
}

export const PHRASES = {
  welcome: '你好，请说要记的账，比如「午饭35块」。',
  notARefund: '那一笔不是退款，请说要改哪笔退款',
  goOn: '请说',
  batchFull: '最多只能记10笔',
  correcting: '好的，正在修改...',
  unclear: '没听清要改什么，请再说一次',
  whichItem: '不确定要修改哪笔，请说具体第几笔',
  appendLimit: '已达上限，请先确认当前交易',
  cancelled: '已取消。',
  offlineCorrection: '当前离线，仅支持简单修正。',
  truncated: '一次最多记10笔，已保留前10笔。',
  nothingParsed: '没听清金额，请再说一次。',
  noPayment: '图片里没有找到付款信息。',
  pictureWhileConfirming: '卡片上还有未确认的草稿，请先确认或取消，再读图片。',
  didNotHear: '没听清，请再说一次。',
  nothingPending: '现在没有待确认的交易。',
  nothingToUndo: '没有可以撤销的记录。',
  undoWhileConfirming: '请先确认或取消当前的交易，再撤销。',
  idleWarning: '还在吗？30秒内没有操作，本次记账将结束。',
  timedOut: '长时间没有操作，本次记账已结束。',
} as const;
