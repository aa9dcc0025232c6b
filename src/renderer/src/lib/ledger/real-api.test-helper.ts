// Test-only: installs `window.suikouji` over the REAL ledger handlers and an in-memory
// SQLite ledger, built exactly as the preload builds the API (buildApi + createDispatch).
import { createDispatch, type Handlers } from '../../../../main/core/ipc/handlers';
import { createLedgerHandlers } from '../../../../main/core/ipc/ledger-handlers';
import { LedgerHistory, openLedger, type Ledger } from '../../../../main/core/ledger/index';
import { buildApi } from '../../../../shared/api-shape';
import type { AppEvent } from '../../../../shared/events';
import type { IpcResult } from '../../../../shared/ipc/index';
import { API_GLOBAL } from '../../../../shared/ipc/names';

export interface RealApi {
  ledger: Ledger;
  history: LedgerHistory;
  close(): void;
}

export function installRealLedgerApi(): RealApi {
  const ledger = openLedger({ path: ':memory:' });
  const listeners = new Set<(e: AppEvent) => void>();
  const history = new LedgerHistory(ledger, {
    onChange: (reason) => listeners.forEach((l) => l({ channel: 'ledger', event: { type: 'changed', reason } })),
  });
  // Only the ledger area is under test; the other areas' handlers are never called here.
  const dispatch = createDispatch(createLedgerHandlers({ ledger, history }) as unknown as Handlers);
  (window as unknown as Record<string, unknown>)[API_GLOBAL] = buildApi(
    (name, input) => dispatch(name, input) as Promise<IpcResult<unknown>>,
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  );
  return { ledger, history, close: () => ledger.close() };
}
