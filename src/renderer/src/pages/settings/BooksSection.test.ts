import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeLedgerApi } from '../../../../../test/support/renderer/fake-ledger-api';
import { BooksState } from '../../lib/books/books.svelte';
import BooksSection from './BooksSection.svelte';

// 设置 → 账本 against the fake's books; main's books (files, switching, voice cards) are tested in src/main/core/books.
let fake: FakeLedgerApi;
let books: BooksState;
let stop: () => void;

beforeEach(() => {
  fake = new FakeLedgerApi().install();
  books = new BooksState(fake.api);
  stop = books.connect();
});

afterEach(() => {
  stop();
  cleanup();
  fake.uninstall();
});

const section = () => within(screen.getByRole('region', { name: '账本' }));

describe('设置 → 账本', () => {
  it('creates a book and switches to it, renames, archives and restores', async () => {
    render(BooksSection, { books });
    await section().findByRole('listitem', { name: '我的账本' });
    await fireEvent.input(section().getByRole('textbox', { name: '新账本名称' }), { target: { value: '旅行' } });
    await fireEvent.click(section().getByRole('button', { name: '新建账本' }));
    await vi.waitFor(() => expect(books.current?.name).toBe('旅行'));
    expect(fake.inputsOf('createBook')).toEqual([{ name: '旅行', switchTo: true }]);
    expect((section().getByRole('textbox', { name: '新账本名称' }) as HTMLInputElement).value).toBe('');
    expect(within(section().getByRole('listitem', { name: '旅行' })).getByText('当前')).toBeTruthy();

    await fireEvent.click(section().getByRole('button', { name: '重命名 我的账本' }));
    await fireEvent.input(section().getByRole('textbox', { name: '新名称' }), { target: { value: '家庭' } });
    await fireEvent.click(section().getByRole('button', { name: '保存名称' }));
    await section().findByRole('listitem', { name: '家庭' });
    await fireEvent.click(section().getByRole('button', { name: '归档 家庭' }));
    await section().findByRole('button', { name: '恢复 家庭' });
    expect(fake.books.books.find((b) => b.id === 'main')).toMatchObject({ name: '家庭', archived: true });
    // The current book offers neither 归档 nor 切换.
    expect(section().queryByRole('button', { name: '归档 旅行' })).toBeNull();
    await fireEvent.click(section().getByRole('button', { name: '恢复 家庭' }));
    await section().findByRole('button', { name: '归档 家庭' });
    await fireEvent.click(within(section().getByRole('listitem', { name: '家庭' })).getByRole('button', { name: '切换' }));
    await vi.waitFor(() => expect(books.current?.name).toBe('家庭'));
  });

  it('shows what main refused, and keeps the typed name', async () => {
    render(BooksSection, { books });
    await section().findByRole('listitem', { name: '我的账本' });
    fake.failNext('createBook', { code: 'validation_failed', message: '已有名为「我的账本」的账本' });
    await fireEvent.input(section().getByRole('textbox', { name: '新账本名称' }), { target: { value: '我的账本' } });
    await fireEvent.click(section().getByRole('button', { name: '新建账本' }));
    expect((await section().findByRole('alert')).textContent).toBe('已有名为「我的账本」的账本');
    expect((section().getByRole('textbox', { name: '新账本名称' }) as HTMLInputElement).value).toBe('我的账本');
  });
});
