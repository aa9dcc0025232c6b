// Understanding = the LLM (gateway or direct) with the local rules as the fallback.
// Parse: LLM within parseTimeoutMs, else parseLocal. Correction: only pending items are sent,
// renumbered 0..k-1; the answer is mapped back to the batch's own indexes; LLM within
// correctionTimeoutMs (3 s), else correctLocal on the same renumbered items.
import type { DraftBatch, PendingView } from '@shared/draft-batch';
import { MAX_BATCH_ITEMS, moneyFlowFields, type CorrectionResult, type ParseResult } from '@shared/domain';
import { MAX_TEXT_CHARS, wireTags, type ParseContext, type ParsedTransaction } from '@shared/gateway';
import { toZonedIso } from '@shared/time';
import { systemClock, type Clock } from '@shared/clock';
import { correctLocal, parseLocal } from '../nlp/index';
import type { CorrectionOutcome, LlmFailure, ParseOutcome, Understanding, UnderstandingContext } from '../voice/ports';
import { createDirectLlmClient } from './direct-client';
import { createGatewayLlmClient } from './gateway-client';
import { LlmClientError, type LlmClient } from './llm-client';

export interface UnderstandingConfig {
  mode: 'offline' | 'gateway' | 'direct';
  /** mode 'gateway' */
  gatewayUrl?: string;
  gatewayApiKey?: string;
  /** mode 'direct' (the LLM core in-process) */
  apiKey?: string;
  llmBaseUrl?: string;
  model?: string;
  fallbackModel?: string;
  /** Default 3000. */
  correctionTimeoutMs?: number;
  /** Default 5000. */
  parseTimeoutMs?: number;
  clock?: Clock;
  fetch?: typeof fetch;
  /** Told why the LLM was not used (never the user's words). */
  log?: (message: string, err?: unknown) => void;
}

export const CONFIDENCE_THRESHOLD = 0.7;

export function createUnderstanding(config: UnderstandingConfig): Understanding {
  const clock = config.clock ?? systemClock;
  const correctionTimeoutMs = config.correctionTimeoutMs ?? 3000;
  const parseTimeoutMs = config.parseTimeoutMs ?? 5000;
  const log = config.log ?? (() => {});
  // A mode whose settings are incomplete (no URL, no key yet) works like offline mode.
  const client = buildClient(config, clock);
  let online = client !== null;

  async function callLlm<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timer: ReturnType<Clock['setTimeout']> | null = null;
    // Raced, not only aborted: the answer is due at the deadline even if a client is slow to
    // notice its signal.
    const deadline = new Promise<never>((_, reject) => {
      timer = clock.setTimeout(() => {
        controller.abort();
        reject(new LlmClientError('aborted', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const value = await Promise.race([call(controller.signal), deadline]);
      online = true;
      return value;
    } catch (err) {
      if (err instanceof LlmClientError && err.code === 'network') online = false;
      throw err;
    } finally {
      clock.clearTimeout(timer);
    }
  }

  function localParse(text: string, context: UnderstandingContext): ParseOutcome {
    const local = parseLocal(text, { now: context.now, customCategories: context.customCategories, accounts: context.accounts });
    return { results: local.results, source: 'local', truncated: local.truncated };
  }

  function localCorrect(text: string, view: PendingView, context: UnderstandingContext): CorrectionOutcome {
    try {
      const local = correctLocal(text, view.items, { now: context.now, customCategories: context.customCategories });
      return settle(mapBack(local, view), 'local');
    } catch (err) {
      log('local correction failed', err);
      return { intent: 'unclear', corrections: [], confidence: 0, source: 'local' };
    }
  }

  return {
    isOnline: () => online,

    async parse(text, context) {
      if (!client || text.trim() === '' || text.length > MAX_TEXT_CHARS) return localParse(text, context);
      try {
        const answer = await callLlm(parseTimeoutMs, (signal) => client.parseTransaction({ text, context: wireContext(context) }, { signal }));
        const results = answer.transactions.slice(0, MAX_BATCH_ITEMS).map(toParseResult);
        // A model that found no money where the local grammar does (午饭35块 → []) would have
        // the user told 没听清金额; the local items are the better answer.
        if (results.every((r) => r.amount === null)) {
          const local = localParse(text, context);
          if (local.results.some((r) => r.amount !== null)) return { ...local, failure: { kind: 'malformed' } };
        }
        // Another service may not cap the list itself.
        return {
          results,
          source: 'llm',
          truncated: answer.truncated === true || answer.transactions.length > MAX_BATCH_ITEMS,
        };
      } catch (err) {
        log('LLM parse failed; using local rules', err);
        return { ...localParse(text, context), failure: failureOf(err) };
      }
    },

    async correct(batch: DraftBatch, text, context) {
      const view = batch.pendingView();
      if (view.items.length === 0) return { intent: 'unclear', corrections: [], confidence: 0, source: 'local' };
      if (!client || text.trim() === '' || text.length > MAX_TEXT_CHARS) return localCorrect(text, view, context);
      try {
        const answer = await callLlm(correctionTimeoutMs, (signal) =>
          client.correctTransaction({ currentBatch: view.items, correctionText: text, context: wireContext(context) }, { signal }),
        );
        const result: CorrectionResult = {
          intent: answer.intent,
          corrections: answer.corrections,
          confidence: answer.confidence,
          model: answer.model,
          ...(answer.message ? { message: answer.message } : {}),
        };
        if (result.confidence < CONFIDENCE_THRESHOLD) return { ...result, intent: 'unclear', corrections: [], source: 'llm' };
        return settle(mapBack(result, view), 'llm');
      } catch (err) {
        log('LLM correction failed; using local rules', err);
        return { ...localCorrect(text, view, context), failure: failureOf(err) };
      }
    },
  };
}

/** The caller tells a refused key (401) from a busy service (429) or a down network. */
function failureOf(err: unknown): LlmFailure {
  if (err instanceof LlmClientError) return err.status === undefined ? { kind: err.code } : { kind: err.code, status: err.status };
  return { kind: 'malformed' };
}

function buildClient(config: UnderstandingConfig, clock: Clock): LlmClient | null {
  if (config.mode === 'gateway' && config.gatewayUrl) {
    return createGatewayLlmClient({ gatewayUrl: config.gatewayUrl, apiKey: config.gatewayApiKey, fetch: config.fetch });
  }
  if (config.mode === 'direct' && config.apiKey) {
    return createDirectLlmClient({
      apiKey: config.apiKey,
      llmBaseUrl: config.llmBaseUrl,
      model: config.model,
      fallbackModel: config.fallbackModel,
      clock,
      fetch: config.fetch,
    });
  }
  return null;
}

/** Custom categories go as bare names: the original service's wire has no type for them. */
function wireContext(context: UnderstandingContext): ParseContext {
  return {
    now: toZonedIso(context.now),
    ...(context.recentCategories ? { recentCategories: context.recentCategories } : {}),
    ...(context.customCategories ? { customCategories: context.customCategories.map((c) => c.name) } : {}),
    ...(context.accounts ? { accounts: context.accounts } : {}),
  };
}

function toParseResult(tx: ParsedTransaction): ParseResult {
  const tags = wireTags(tx.tags);
  return {
    amount: tx.amount,
    type: tx.type,
    category: tx.category,
    description: tx.description,
    date: tx.date,
    account: tx.account,
    confidence: tx.confidence,
    source: 'llm',
    ...moneyFlowFields(tx),
    ...(tags ? { tags } : {}),
  };
}

/** Renumbered indexes → the batch's own indexes; an index that names no sent item is dropped. */
function mapBack(result: CorrectionResult, view: PendingView): CorrectionResult {
  return {
    ...result,
    corrections: result.corrections.flatMap((c) => {
      if (c.index === -1) return [c];
      const original = view.toOriginal[c.index];
      return original === undefined ? [] : [{ ...c, index: original }];
    }),
  };
}

/**
 * Keeps only the corrections the intent can use (edits for correction, index -1 for append;
 * none for confirm/cancel/unclear) and calls an edit with nothing left to apply unclear, so
 * the orchestrator never has to second-guess the outcome.
 */
function settle(result: CorrectionResult, source: 'llm' | 'local'): CorrectionOutcome {
  let corrections = result.corrections.filter((c) => Object.keys(c.updatedFields).length > 0);
  if (result.intent === 'correction') corrections = corrections.filter((c) => c.index !== -1);
  else if (result.intent === 'append') corrections = corrections.filter((c) => c.index === -1);
  else corrections = [];
  const empty = (result.intent === 'correction' || result.intent === 'append') && corrections.length === 0;
  return { ...result, intent: empty ? 'unclear' : result.intent, corrections, source };
}
