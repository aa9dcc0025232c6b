// Local (offline) understanding: parse, Layer-1 intent classification, correction, query detection.
// First cut of the contract so other modules can import it; the grammar grows behind it.
import type {
  BatchItem,
  ClassifyResult,
  CorrectionResult,
  LedgerQuery,
  ParseResult,
  TransactionType,
} from '../../../shared/domain';
import type { ZonedNow } from '../../../shared/time';

export interface LocalNlpOptions {
  now: ZonedNow;
  customCategories?: { name: string; type: TransactionType }[];
}

/** Offline: 0 or 1 result, source 'local'. */
export interface LocalParseOutput {
  results: ParseResult[];
  multipleDetected: boolean;
}

export function parseLocal(text: string, _options: LocalNlpOptions): LocalParseOutput {
  const m = /(\d+(?:\.\d+)?)/.exec(text);
  if (!m && text.trim() === '') return { results: [], multipleDetected: false };
  return {
    results: [
      {
        amount: m ? Number(m[1]) : null,
        type: 'EXPENSE',
        category: null,
        description: text.trim(),
        date: null,
        account: null,
        confidence: 0.6,
        source: 'local',
      },
    ],
    multipleDetected: false,
  };
}

export function classifyIntent(text: string, _batchSize: number): ClassifyResult {
  if (/^(确认|对的|好的|确定)$/.test(text.trim())) return { intent: 'confirm', index: null };
  if (/^(取消|不要了)$/.test(text.trim())) return { intent: 'cancel', index: null };
  return { intent: 'newInput', index: null };
}

export function correctLocal(
  _text: string,
  _pending: readonly BatchItem[],
  _options: LocalNlpOptions,
): CorrectionResult {
  return { intent: 'unclear', corrections: [], confidence: 0 };
}

export function detectQuery(_text: string, _now: ZonedNow): LedgerQuery | null {
  return null;
}
