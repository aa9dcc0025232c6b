import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import type { AppInfo } from '@shared/ipc/app';
import type { IpcResult } from '@shared/ipc/index';
import LedgerNotice from './LedgerNotice.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

function fakeApi(readOnly: boolean) {
  const listeners: ((event: AppEvent) => void)[] = [];
  return {
    appInfo: async (): Promise<IpcResult<AppInfo>> => ({ ok: true, value: { version: '1', dataDir: '/d', databasePath: '/d/ledger.db', readOnly } }),
    onEvent(listener: (event: AppEvent) => void) {
      listeners.push(listener);
      return () => void listeners.splice(listeners.indexOf(listener), 1);
    },
    emit: (event: AppEvent) => listeners.forEach((l) => l(event)),
  };
}

afterEach(() => cleanup());

describe('ledger notice', () => {
  it('says nothing for a healthy, writable ledger', async () => {
    render(LedgerNotice, { props: { api: fakeApi(false) } });
    await tick();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a read-only ledger can be viewed but not saved to', async () => {
    render(LedgerNotice, { props: { api: fakeApi(true) } });
    await tick();
    expect(screen.getByRole('alert').textContent).toContain('账本文件是只读的');
  });

  it('shows the damage found by the check after opening, in the core’s words', async () => {
    const api = fakeApi(false);
    render(LedgerNotice, { props: { api } });
    await tick();
    api.emit({ channel: 'voice', event: { type: 'error', code: 'other', message: '别的错误' } });
    await tick();
    expect(screen.queryByRole('alert')).toBeNull();
    api.emit({ channel: 'voice', event: { type: 'error', code: 'ledger_damaged', message: '账本文件已损坏，已停止写入。' } });
    await tick();
    expect(screen.getByRole('alert').textContent).toBe('账本文件已损坏，已停止写入。');
  });
});
