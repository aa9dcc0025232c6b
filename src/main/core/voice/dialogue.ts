// The dialogue around the card (spec: voice-correction-dialogue, voice-batch-transaction) as
// one step: (drafts, words or a card action, what the understanding made of them) → (new
// drafts, sentences, events, effect). A step reads nothing but its arguments and the local
// NLP; the orchestrator shows what it returns and performs its effect, so every decision is
// a line of testdata/dialogue.jsonl.
import { DraftBatch, type BatchAbout } from '@shared/draft-batch';
import { lendable, type ClassifyResult, type LedgerQuery, type ParseResult } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import type { SavedRow } from '@shared/flow-text';
import type { BudgetAlert } from '@shared/ipc/ledger';
import type { DraftFields } from '@shared/ipc/voice';
import type { RecurringRuleInfo } from '@shared/recurrence';
import { toZonedIso, type ZonedNow } from '@shared/time';
import {
  classifyIntent,
  correctLocal,
  detectBudgetQuery,
  detectDebtQuery,
  detectQuery,
  parseLocal,
  readAmountReply,
  type BudgetQuery,
  type DebtQuery,
} from '../nlp/index';
import { ITEM_REFERENCE, NO_MORE_CHANGES, UNDO_BARE, UNDO_SAVE_REFERENCE } from '../nlp/lexicon/dialogue';
import { readMoneyFlow } from '../nlp/money-flow';
import type { CorrectionOutcome, LlmFailure, ParseOutcome } from './ports';
import { placedCategory, placedFields, placedResult, type Placement } from './session-book';
import { readRelink } from '../nlp/refund-relink';
import { ordinalIndex } from '../nlp/ordinals';
import * as say from './templates';

/** UI commands that act on the drafts (restart belongs to the session manager). */
export type DraftAction =
  | { action: 'confirmItem'; index: number }
  | { action: 'cancelItem'; index: number }
  | { action: 'editItem'; index: number; fields: DraftFields }
  | { action: 'confirmAll' }
  | { action: 'cancelAll' }
  | { action: 'undo' };

export interface DialogueState {
  /** The card on screen; null while LISTENING. */
  batch: DraftBatch | null;
  /**
   * The last thing said was 「还需要修改吗？」. A bare 「没有了」 then means no more changes, not
   * the exit word, and 「不需要了」 is not the cancel that would drop the drafts.
   */
  askedForMoreChanges: boolean;
  /** The offline-correction notice is said once a session. */
  offlineNoticed: boolean;
  /** 「再加一笔」 with items pending: what is said next is parsed and appended to the card. */
  addingMore?: boolean;
}

export interface DialogueEnv extends Placement {
  now: ZonedNow;
  /** Understanding.isOnline() at the time of the step. */
  online: boolean;
}

export type DialogueInput =
  | { text: string }
  /** The same words again with Understanding's answer, after a `parse` or `correct` effect. */
  | { text: string; parsed: ParseOutcome }
  | { text: string; corrected: CorrectionOutcome }
  | { action: DraftAction }
  /** A picture's drafts (截图记账), read off it; only ever given while no card is open. */
  | { picture: { results: readonly ParseResult[]; about: BatchAbout } };

export type Effect =
  | { kind: 'none' }
  /** Ask Understanding.parse (LISTENING) or .correct (CONFIRMING), then step again with the answer. */
  | { kind: 'parse'; text: string }
  | { kind: 'correct'; text: string; batch: DraftBatch }
  /** Save the confirmed items of `resolved` in one transaction; on failure the card is `before` again. */
  | { kind: 'save'; resolved: DraftBatch; before: DraftBatch }
  | { kind: 'undo' }
  | { kind: 'query'; query: LedgerQuery }
  /** 「这个月预算还剩多少」: answered from the month's budgets. */
  | { kind: 'budget'; query: BudgetQuery }
  /** 「小李还欠我多少」: answered from the people's balances. */
  | { kind: 'debt'; query: DebtQuery }
  | { kind: 'exit' };

export interface Step extends DialogueState {
  /** The words that made a fresh card: it reaches the windows in finalText, not draftBatchUpdated. */
  heard?: string;
  /** Emitted after the card is shown. */
  events: VoiceEvent[];
  /** Spoken one after another, after the events. */
  sentences: string[];
  effect: Effect;
}

const NONE: Effect = { kind: 'none' };

export function step(state: DialogueState, input: DialogueInput, env: DialogueEnv): Step {
  if ('action' in input) return onAction(state, input.action, env);
  if ('picture' in input) return pictured(state, input.picture.results, input.picture.about, env);
  if ('parsed' in input) return drafted(state, input.text, input.parsed, env);
  if (!state.batch) return 'corrected' in input ? next(state) : listening(state, input.text, env);
  if ('corrected' in input) return applyCorrection(state, state.batch, input.text, input.corrected, env);
  return confirming(state, state.batch, input.text, env);
}

/** How a change of card reaches the windows, or null when the card stays as it is. */
export function cardEvent(before: DraftBatch | null, after: Step): VoiceEvent | null {
  if (after.batch === before) return null;
  if (after.batch && after.heard !== undefined) return { type: 'finalText', text: after.heard, batch: after.batch.toDto() };
  return { type: 'draftBatchUpdated', batch: after.batch?.toDto() ?? null };
}

/**
 * After a save: the card is gone and the user hears what was written (how many items, or the
 * one money flow by its words), then, in the same reply, each budget threshold the save crossed.
 */
export function afterSave(
  state: DialogueState,
  rows: readonly SavedRow[],
  alerts: readonly BudgetAlert[] = [],
  rules: readonly RecurringRuleInfo[] = [],
): Step {
  return next(state, { batch: null, sentences: [say.saved(rows, alerts, rules)] });
}

/** Nothing was written: the drafts go back to how they were and the user hears why. */
export function afterSaveFailure(state: DialogueState, before: DraftBatch, reason: string): Step {
  return next(state, {
    batch: before,
    events: [{ type: 'error', code: 'save_failed', message: `保存失败：${reason}` }],
    sentences: [say.saveFailed(reason)],
  });
}

/** The undone rows are a card again, or there was nothing left to undo. */
export function afterUndo(state: DialogueState, restored: DraftBatch | null): Step {
  if (!restored) return says(state, say.PHRASES.nothingToUndo);
  return next(state, { batch: restored, sentences: [say.undone(restored.size) + say.readBack(restored)] });
}

/**
 * The gateway or provider refused the call (a wrong key, a rate limit, a broken service):
 * the local rules answered, but the user must learn why multi-item input stopped working.
 * A down network is spoken as 「当前离线」 instead; a timeout or an unusable answer is a one-off.
 */
export function llmFailureError(failure: LlmFailure | undefined): { code: string; message: string } | null {
  if (failure?.kind !== 'http') return null;
  const status = failure.status ?? 0;
  if (status === 401 || status === 403) return { code: 'llm_unavailable', message: `智能解析服务拒绝了密钥（HTTP ${status}），已改用本地规则` };
  if (status === 429) return { code: 'llm_busy', message: `智能解析服务繁忙（HTTP ${status}），暂时改用本地规则` };
  return { code: 'llm_unavailable', message: `智能解析服务暂时不可用（HTTP ${status}），已改用本地规则` };
}

// ---- LISTENING ----------------------------------------------------------------------

function listening(state: DialogueState, text: string, env: DialogueEnv): Step {
  const intent = classifyIntent(text, 0).intent;
  // 「嗯」「啊」 or bare punctuation is thinking aloud, not something to parse.
  if (intent === 'filler') return next(state);
  if (intent === 'exit') return next(state, { effect: { kind: 'exit' } });
  const plain = stripPunctuation(text);
  if (UNDO_BARE.test(plain) || UNDO_SAVE_REFERENCE.test(plain)) return next(state, { effect: { kind: 'undo' } });
  const question = ledgerQuestion(text, env);
  if (question) return next(state, { effect: question });
  if (intent === 'confirm' || intent === 'cancel' || intent === 'confirmItem' || intent === 'cancelItem')
    return says(state, say.PHRASES.nothingPending);
  // 「第一笔改成50」 with no card: a fix of drafts that are gone, not a new item 「改成」 50.
  // 「淘宝买鞋那笔退了三百」 points at a saved expense too, but to refund it: a new item.
  if (intent === 'correction' && ITEM_REFERENCE.test(text) && readMoneyFlow(text)?.flow !== 'refund') return says(state, say.PHRASES.nothingPending);
  // Nothing is pending, so nothing was just saved: 「记好了」 here would claim a save that never happened.
  if (intent === 'continueRecording') return next(state, { events: [{ type: 'continueRecording' }], sentences: [say.PHRASES.goOn] });
  return next(state, { effect: { kind: 'parse', text } });
}

function drafted(state: DialogueState, text: string, outcome: ParseOutcome, env: DialogueEnv): Step {
  const results = outcome.results.map((result) => placedResult(result, env));
  if (state.batch) return appendDrafts(state, state.batch, results, outcome.source);
  // Words with neither an amount nor a known item ("今天天气不错") are not a transaction to confirm;
  // 「打车，还有午饭35」 is, and the card asks for the taxi's amount.
  if (!results.some((result) => result.amount !== null || result.category !== null)) return says(state, say.PHRASES.nothingParsed);
  const batch = DraftBatch.fromResults(results, toZonedIso(env.now));
  const notice = outcome.truncated || results.length > batch.size ? say.PHRASES.truncated : '';
  return next(state, { batch, heard: text, sentences: [notice + say.readBack(batch)] });
}

/**
 * A picture's drafts: a card of their own, with the reading's notes and the picture's name,
 * read back like typed ones (the card shows the rest); a draft that may be in the book already
 * is said to be.
 */
function pictured(state: DialogueState, picture: readonly ParseResult[], about: BatchAbout, env: DialogueEnv): Step {
  if (state.batch) return says(state, say.PHRASES.pictureWhileConfirming);
  const results = picture.map((result) => placedResult(result, env));
  if (!results.some((result) => result.amount !== null || result.category !== null)) return says(state, say.PHRASES.noPayment);
  const batch = DraftBatch.fromResults(results, toZonedIso(env.now), about);
  const notice = results.length > batch.size ? say.PHRASES.truncated : '';
  return next(state, { batch, sentences: [notice + say.readBack(batch) + say.maybeRecorded(batch)] });
}

/** What was said after 「再加一笔」, or an append correction: new pending items at the end of the card. */
function appendDrafts(state: DialogueState, batch: DraftBatch, results: readonly ParseResult[], source: ParseResult['source']): Step {
  let grown = batch;
  const added: number[] = [];
  let full = false;
  for (const result of results) {
    if (result.amount === null && result.category === null) continue;
    const appended = grown.append({ ...result, source });
    if (!appended) {
      full = true;
      break;
    }
    grown = appended;
    added.push(grown.items[grown.items.length - 1]!.index);
  }
  if (added.length === 0) return says(state, full ? say.PHRASES.appendLimit : say.PHRASES.nothingParsed);
  const items = added.map((index) => ({ number: grown.displayNumber(index), result: grown.item(index)!.result }));
  return next(state, { batch: grown, sentences: [say.appended(items, grown) + (full ? say.PHRASES.appendLimit : '')] });
}

// ---- CONFIRMING -----------------------------------------------------------------------

function confirming(state: DialogueState, batch: DraftBatch, text: string, env: DialogueEnv): Step {
  const plain = stripPunctuation(text);
  // 「二十八」 after 「第1笔打车多少钱？」 is that amount, not a correction of every item.
  const missing = batch.missingAmountItems[0];
  const reply = missing ? readAmountReply(text) : null;
  if (missing && reply !== null) {
    const filled = batch.updateItem(missing.index, { amount: reply });
    return next(state, { batch: filled, sentences: [say.readBack(filled)] });
  }
  if (state.askedForMoreChanges && NO_MORE_CHANGES.test(plain)) return resolve(state, batch.confirmAll(), batch);
  // Before Layer 1, which hears 撤销 as cancel: words naming the earlier save must not drop this card.
  if (UNDO_SAVE_REFERENCE.test(plain)) return says(state, say.PHRASES.undoWhileConfirming);
  // 「不是鞋子，是衣服那笔」 on a card with a refund: which expense it returns, before Layer 1
  // hears 那笔 as an item reference.
  const relink = relinkBySpeech(state, batch, text, env);
  if (relink) return relink;
  // A bare undo word (撤销/撤回/撤消) is Layer 1's cancel of this card.
  const layer1: ClassifyResult = classifyIntent(text, batch.size);
  switch (layer1.intent) {
    case 'confirm':
      return resolve(state, batch.confirmAll(), batch);
    case 'cancel':
      return resolve(state, batch.cancelAll(), batch);
    case 'exit':
      return next(state, { effect: { kind: 'exit' } });
    case 'filler':
      // Thinking aloud while reading the card: neither a correction nor worth an LLM call.
      return next(state);
    case 'continueRecording':
      // 「再加一笔」 with items pending means "I have more", never "drop these".
      if (batch.isFull) return says(state, say.PHRASES.batchFull);
      return next(state, { events: [{ type: 'continueRecording' }], sentences: [say.PHRASES.goOn], addingMore: true });
    case 'confirmItem':
    case 'cancelItem': {
      const position = layer1.index ?? -1;
      const target = batch.items[position];
      if (layer1.outOfRange || !target) return says(state, say.noSuchItem(position + 1, batch.size));
      return itemAction(state, layer1.intent === 'confirmItem' ? 'confirm' : 'cancel', target.index, batch);
    }
    default:
      break;
  }
  const question = ledgerQuestion(text, env);
  if (question) return next(state, { effect: question });
  if (state.addingMore && layer1.intent !== 'correction' && !ITEM_REFERENCE.test(text) && addsItems(batch, text, env)) {
    return next(state, { effect: { kind: 'parse', text } });
  }
  // Layer 2: fill the wait with speech, then the LLM (3 s) or the local rules.
  return next(state, { sentences: [say.PHRASES.correcting], effect: { kind: 'correct', text, batch } });
}

function applyCorrection(state: DialogueState, batch: DraftBatch, text: string, outcome: CorrectionOutcome, env: DialogueEnv): Step {
  const intent = outcome.confidence < 0.7 ? 'unclear' : outcome.intent;
  // The first reply from the offline rules says that only simple fixes work (spec: 离线降级纠正).
  let offlineNoticed = state.offlineNoticed;
  const notice = (): string => {
    if (outcome.source !== 'local' || env.online || offlineNoticed) return '';
    offlineNoticed = true;
    return say.PHRASES.offlineCorrection;
  };
  const reply = (changes: Partial<Step>): Step => next(state, { ...changes, offlineNoticed });
  const message = intent !== 'unclear' && outcome.message ? outcome.message : '';
  switch (intent) {
    case 'confirm':
      return resolve(state, batch.confirmAll(), batch);
    case 'cancel':
      return resolve(state, batch.cancelAll(), batch);
    case 'correction': {
      let changed = batch;
      const fixed: number[] = [];
      const redated = new Set<number>();
      for (const c of outcome.corrections) {
        const target = changed.item(c.index);
        if (!target || target.status !== 'pending') continue;
        const updated = changed.updateItem(c.index, placedFields(target.result, c.updatedFields, env));
        // Fields equal to what the item already holds are no change to read back.
        if (updated === changed || sameDraft(updated.item(c.index)!.result, target.result)) continue;
        if (updated.item(c.index)!.result.date !== target.result.date) redated.add(c.index);
        changed = updated;
        if (!fixed.includes(c.index)) fixed.push(c.index);
      }
      if (fixed.length === 0) break;
      const fixes = fixed.map((index) => ({
        number: changed.displayNumber(index),
        result: changed.item(index)!.result,
        dateChanged: redated.has(index),
      }));
      const sentence = notice() + say.corrected(fixes, changed.size) + message;
      return reply({ batch: changed, sentences: [sentence], askedForMoreChanges: true });
    }
    case 'append': {
      const results = outcome.corrections.flatMap((c): ParseResult[] => {
        const fields = c.updatedFields;
        if (typeof fields.amount !== 'number' || !(fields.amount > 0)) return [];
        const type = fields.type ?? 'EXPENSE';
        return [
          {
            amount: fields.amount,
            type,
            category: fields.category ? placedCategory(fields.category, fields.description ?? '', type, env) : null,
            description: fields.description ?? '',
            date: fields.date ?? null,
            account: fields.account ?? null,
            confidence: outcome.confidence,
            source: outcome.source,
          },
        ];
      });
      if (results.length === 0) break;
      const appended = appendDrafts(state, batch, results, outcome.source);
      return reply({ batch: appended.batch, sentences: [notice() + appended.sentences.join('') + message] });
    }
    default:
      break;
  }
  return reply({ sentences: [notice() + (outcome.message || (targetIsAmbiguous(batch, text, env) ? say.PHRASES.whichItem : say.PHRASES.unclear))] });
}

/**
 * 「改成50」 with several pending items: the words carry a change but name no item, so the
 * user is asked which one (spec: 定位模糊) rather than told they were not understood. The
 * local rules decide: unplaceable against the batch, yet a change for a lone item.
 */
function targetIsAmbiguous(batch: DraftBatch, text: string, env: DialogueEnv): boolean {
  const view = batch.pendingView();
  if (view.items.length < 2) return false;
  const options = { now: env.now, customCategories: [...env.customCategories] };
  try {
    if (correctLocal(text, view.items, options).intent !== 'unclear') return false;
    const alone = correctLocal(text, [{ ...view.items[0]!, index: 0 }], options);
    return alone.intent === 'correction' && alone.corrections.some((c) => Object.keys(c.updatedFields).length > 0);
  } catch {
    return false;
  }
}

/**
 * After 「再加一笔」: words are new items unless the local rules read them as a change of the
 * card (金额都加10块). 「打车20然后午饭30」 matches 打车 on the card, yet names kinds of spending
 * with amounts: new items.
 */
function addsItems(batch: DraftBatch, text: string, env: DialogueEnv): boolean {
  const options = { now: env.now, customCategories: [...env.customCategories] };
  try {
    if (correctLocal(text, batch.pendingView().items, options).intent !== 'correction') return true;
    return parseLocal(text, options).results.some((result) => result.amount !== null && result.category !== null);
  } catch {
    return true;
  }
}

function onAction(state: DialogueState, action: DraftAction, env: DialogueEnv): Step {
  const batch = state.batch;
  if (action.action === 'undo') return batch ? says(state, say.PHRASES.undoWhileConfirming) : next(state, { effect: { kind: 'undo' } });
  if (!batch) return says(state, say.PHRASES.nothingPending);
  switch (action.action) {
    case 'confirmAll':
      return resolve(state, batch.confirmAll(), batch);
    case 'cancelAll':
      return resolve(state, batch.cancelAll(), batch);
    case 'confirmItem':
    case 'cancelItem':
      if (!batch.item(action.index)) return next(state);
      return itemAction(state, action.action === 'confirmItem' ? 'confirm' : 'cancel', action.index, batch);
    case 'editItem': {
      const target = batch.item(action.index);
      if (!target || target.status !== 'pending') return next(state);
      const { refundOf, lend, ...fields } = action.fields;
      // Only a transfer to a person can be a loan: asked of any other draft alone, the card stays as it was.
      if (lend !== undefined && refundOf === undefined && Object.keys(fields).length === 0 && !lendable(target.result)) return next(state);
      // A refund relinked on the card takes the chosen expense's category and says which it is.
      const relinked =
        refundOf !== undefined && target.result.flow === 'refund' && refundOf !== target.result.refundOf
          ? batch.withResult(action.index, relinkedRefund(target.result, refundOf, env))
          : batch;
      const placed = relinked.updateItem(action.index, placedFields(relinked.item(action.index)!.result, fields, env));
      const edited = lend === undefined ? placed : placed.withResult(action.index, lentOrNot(placed.item(action.index)!.result, lend));
      if (edited === batch) return next(state);
      const fix = { number: edited.displayNumber(action.index), result: edited.item(action.index)!.result };
      return next(state, { batch: edited, sentences: [say.corrected([fix], edited.size)], askedForMoreChanges: true });
    }
  }
}

/**
 * A refund on the card relinked by voice: the named expense is looked up as the refund's own
 * words would be (the best recent match), and the card says which it now returns. A name
 * that matches nothing keeps the link as it was and says so.
 */
function relinkBySpeech(state: DialogueState, batch: DraftBatch, text: string, env: DialogueEnv): Step | null {
  if (!env.link) return null;
  const words = readRelink(text);
  if (!words) return null;
  const refunds = batch.items.filter((item) => item.status === 'pending' && item.result.flow === 'refund');
  if (refunds.length === 0) return null;
  let target = refunds.length === 1 ? refunds[0] : refunds.at(-1);
  if (words.ordinal) {
    const position = ordinalIndex(words.ordinal, batch.size);
    target = position === null ? undefined : batch.items[position];
    if (!target || target.status !== 'pending' || target.result.flow !== 'refund') return says(state, say.PHRASES.notARefund);
  }
  const { refundOf: _old, linkNote: _note, cardNote: _shown, ...bare } = target!.result;
  const found = env.link({ ...bare, description: words.what, category: null });
  if (!found.refundOf) return says(state, say.noRefundTarget(words.what));
  const relinked = batch.withResult(target!.index, {
    ...bare,
    refundOf: found.refundOf,
    category: found.category,
    linkNote: found.linkNote,
    ...(found.cardNote ? { cardNote: found.cardNote } : {}),
  });
  const fix = { number: relinked.displayNumber(target!.index), result: relinked.item(target!.index)!.result };
  return next(state, { batch: relinked, sentences: [say.corrected([fix], relinked.size)], askedForMoreChanges: true });
}

/** The transfer as a loan to its person (a debt they owe) or as a plain transfer; any other draft as it is. */
function lentOrNot(result: ParseResult, lend: boolean): ParseResult {
  if (!lendable(result)) return result;
  if (lend) return { ...result, flow: 'lend' };
  const { flow: _lent, ...transfer } = result;
  return transfer;
}

function relinkedRefund(result: ParseResult, refundOf: string, env: DialogueEnv): ParseResult {
  const bare: ParseResult = { ...result, refundOf };
  delete bare.linkNote;
  delete bare.cardNote;
  return env.link ? env.link(bare) : bare;
}

function itemAction(state: DialogueState, kind: 'confirm' | 'cancel', index: number, batch: DraftBatch): Step {
  const changed = kind === 'confirm' ? batch.confirmItem(index) : batch.cancelItem(index);
  // An item without an amount cannot be confirmed: ask for it instead.
  const target = batch.item(index)!;
  if (kind === 'confirm' && target.status === 'pending' && target.result.amount === null) {
    return says(state, say.askAmount(batch.displayNumber(index), target.result, batch.size));
  }
  if (changed.allResolved) return resolve(state, changed, batch);
  const number = changed.displayNumber(index);
  const sentence =
    kind === 'confirm'
      ? say.itemConfirmed(number, changed.pendingCount)
      : say.itemCancelled(number, changed.item(index)!.result, changed.pendingCount);
  return next(state, { batch: changed, sentences: [sentence] });
}

/**
 * Nothing is pending any more: save what was confirmed, or say 已取消 and clear the card. An
 * item still missing its amount keeps the card (and the others stay unsaved with it, so the
 * ledger never holds part of a card): the user is asked for the amount again.
 */
function resolve(state: DialogueState, resolved: DraftBatch, before: DraftBatch): Step {
  if (resolved.missingAmountItems.length > 0) {
    const newlyConfirmed = resolved.confirmedItems.length - before.confirmedItems.length;
    const confirmed = newlyConfirmed > 0 ? say.confirmedSome(newlyConfirmed) : '';
    return next(state, { batch: resolved, sentences: [confirmed + say.amountQuestion(resolved)] });
  }
  if (resolved.confirmedItems.length === 0) return next(state, { batch: null, sentences: [say.PHRASES.cancelled] });
  return next(state, { effect: { kind: 'save', resolved, before } });
}

// ---- helpers --------------------------------------------------------------------------

/** A question about the budgets or the spending, answered from the ledger instead of booked. */
function ledgerQuestion(text: string, env: DialogueEnv): Effect | null {
  const debt = detectDebtQuery(text);
  if (debt) return { kind: 'debt', query: debt };
  const budget = detectBudgetQuery(text, env.now, env.customCategories);
  if (budget) return { kind: 'budget', query: budget };
  const query = detectQuery(text, env.now);
  return query ? { kind: 'query', query } : null;
}

/** The step's defaults: the card as it was, the question of 「还需要修改吗？」 answered, nothing said. */
function next(state: DialogueState, changes: Partial<Step> = {}): Step {
  return {
    batch: state.batch,
    askedForMoreChanges: false,
    offlineNoticed: state.offlineNoticed,
    addingMore: false,
    events: [],
    sentences: [],
    effect: NONE,
    ...changes,
  };
}

function says(state: DialogueState, sentence: string): Step {
  return next(state, { sentences: [sentence] });
}

function stripPunctuation(text: string): string {
  return text.replace(/[\s，。！？!?,.、~～…]+/g, '');
}

function sameDraft(a: ParseResult, b: ParseResult): boolean {
  return (
    a.amount === b.amount &&
    a.type === b.type &&
    a.category === b.category &&
    a.description === b.description &&
    a.date === b.date &&
    a.account === b.account
  );
}
