import type { Ledger } from '../ledger/index';
import type { AreaHandlers } from './handlers';

export interface LedgerHandlerDeps {
  ledger: Ledger;
}

export function createLedgerHandlers(deps: LedgerHandlerDeps): AreaHandlers<'listTransactions' | 'searchTransactions' | 'monthSummary'> {
  return {
    listTransactions: (input) => deps.ledger.list(input),
    searchTransactions: (input) => deps.ledger.search(input.query, input.limit),
    monthSummary: (input) => deps.ledger.monthSummary(input.month),
  };
}
