import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { WindowAction } from '@shared/ipc/app';
import { batchOf } from '../../../../../test/support/renderer/card-fixtures';
import { FakeVoiceApi } from '../../../../../test/support/renderer/fake-voice-api';
import QuickEntryPage from './QuickEntryPage.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

class FakeQuickApi extends FakeVoiceApi {
  windowActions: WindowAction[] = [];
  windowAction = (input: WindowAction) => {
    this.windowActions.push(input);
    return Promise.resolve({ ok: true as const, value: null });
  };
}

afterEach(() => cleanup());

describe('quick entry page', () => {
  it('Enter sends the text, the card appears, and a save closes the window once', async () => {
    const api = new FakeQuickApi();
    render(QuickEntryPage, { props: { api } });
    await tick();
    const box = screen.getByRole('textbox', { name: '快速记账输入' }) as HTMLInputElement;
    expect(document.activeElement).toBe(box);
    api.set('confirming', { batch: batchOf([{ amount: 35, description: '午饭' }]) });
    await fireEvent.input(box, { target: { value: '午饭35' } });
    await fireEvent.submit(box.form!);
    await tick();
    expect(api.calls.find((c) => c.name === 'voiceText')?.input).toEqual({ text: '午饭35' });
    expect(screen.getByRole('region', { name: '确认卡片' }).textContent).toContain('¥35');
    const row = {
      id: 'a',
      amountFen: 3500,
      currency: 'CNY',
      type: 'EXPENSE' as const,
      category: '餐饮',
      account: '钱包',
      description: '午饭',
      occurredAt: '',
      date: '',
      source: 'local' as const,
      createdAt: '',
      updatedAt: '',
    };
    api.emit({ channel: 'voice', event: { type: 'saved', transactions: [row] } });
    api.emit({ channel: 'voice', event: { type: 'saved', transactions: [row] } });
    expect(api.windowActions).toEqual([{ action: 'closeQuickEntry' }]);
  });

  it('Esc closes, but Esc inside the editor only closes the editor', async () => {
    const api = new FakeQuickApi();
    api.set('confirming', { batch: batchOf([{ amount: 35 }]) });
    render(QuickEntryPage, { props: { api } });
    await tick();
    await fireEvent.click(screen.getByRole('button', { name: '修改' }));
    const amount = screen.getByLabelText('金额（元）');
    await fireEvent.keyDown(amount, { key: 'Escape' });
    expect(screen.queryByRole('form')).toBeNull();
    expect(api.windowActions).toEqual([]);
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(api.windowActions).toEqual([{ action: 'closeQuickEntry' }]);
  });
});
