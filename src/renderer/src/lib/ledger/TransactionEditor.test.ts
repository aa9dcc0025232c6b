import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountInfo } from '@shared/ipc/ledger';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import TransactionEditor from './TransactionEditor.svelte';

// The edit form offers the accounts a row may move to: open ones, plus the archived one it is already in.
let fake: FakeLedgerApi;

beforeEach(() => {
  fake = new FakeLedgerApi().install();
});

afterEach(() => {
  cleanup();
  fake.uninstall();
});

const cash = { kind: 'cash', statementDay: null, dueDay: null } as const;
const accounts: AccountInfo[] = [
  { id: 1, name: '钱包', isDefault: true, count: 1, archived: false, ...cash },
  { id: 2, name: '招行卡', isDefault: false, count: 1, archived: true, ...cash },
  { id: 3, name: '微信', isDefault: false, count: 0, archived: false, ...cash },
];

const options = () => [...(screen.getByRole('combobox', { name: '账户' }) as HTMLSelectElement).options].map((o) => o.textContent);

describe('TransactionEditor', () => {
  it('leaves archived accounts out of the account choices', () => {
    const row = fake.addRow({ amountFen: 3500, description: '午饭' });
    render(TransactionEditor, { row, categories: [], accounts, onDone: () => {} });
    expect(options()).toEqual(['钱包', '微信']);
  });

  it('keeps the archived account a row is already in, marked as such', () => {
    const row = fake.addRow({ amountFen: 3500, description: '午饭', account: '招行卡' });
    render(TransactionEditor, { row, categories: [], accounts, onDone: () => {} });
    expect(options()).toEqual(['钱包', '招行卡（已归档）', '微信']);
  });
});
