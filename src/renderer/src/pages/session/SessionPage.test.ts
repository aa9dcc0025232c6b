import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { batchOf, FOUR } from '../../../../../test/support/renderer/card-fixtures';
import { FakeVoiceApi } from '../../../../../test/support/renderer/fake-voice-api';
import { settingsSchema, type SettingsView } from '@shared/ipc/app-settings';
import type { IpcResult } from '@shared/ipc/index';
import { FakeModelsApi, SMALL_MODEL } from '../../../../../test/support/renderer/fake-models-api';
import { router } from '../../lib/router.svelte';
import SessionPage from './SessionPage.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => cleanup());

async function open(api = new FakeVoiceApi()) {
  render(SessionPage, { props: { api } });
  await tick();
  return api;
}

describe('session page', () => {
  it('shows the state, the offline badge and the partial transcript', async () => {
    const api = new FakeVoiceApi();
    api.set('listening', { online: false });
    await open(api);
    expect(screen.getByRole('status', { name: '会话状态' }).textContent).toContain('正在聆听');
    expect(screen.getByRole('note').textContent).toBe('离线');
    api.emit({ channel: 'voice', event: { type: 'stateChanged', state: 'recognizing' } });
    api.emit({ channel: 'voice', event: { type: 'partialText', text: '吃饭花了六十' } });
    await tick();
    expect(screen.getByRole('status', { name: '会话状态' }).textContent).toContain('正在识别');
    expect(screen.getByLabelText('实时识别').textContent).toContain('吃饭花了六十');
  });

  it('submits typed text with Enter and keeps it when the command fails', async () => {
    const api = await open();
    const input = screen.getByRole('textbox', { name: '文字输入' }) as HTMLInputElement;
    await fireEvent.input(input, { target: { value: '午饭35' } });
    api.failNext = { code: 'voice_unavailable', message: '语音会话尚未就绪，请稍后再试。' };
    await fireEvent.submit(input.form!);
    await tick();
    expect(input.value).toBe('午饭35');
    expect(screen.getByText('语音会话尚未就绪，请稍后再试。')).toBeTruthy();
    await fireEvent.submit(input.form!);
    await tick();
    expect(api.calls.filter((c) => c.name === 'voiceText').map((c) => c.input)).toEqual([{ text: '午饭35' }, { text: '午饭35' }]);
    expect(input.value).toBe('');
  });

  it('renders the card from events and sends the clicks', async () => {
    const api = await open();
    api.emit({ channel: 'voice', event: { type: 'finalText', text: '…', batch: batchOf(FOUR) } });
    await tick();
    const card = screen.getByRole('region', { name: '确认卡片' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(4);
    await fireEvent.click(within(card).getByRole('button', { name: '取消第2笔' }));
    expect(api.calls.at(-1)).toEqual({ name: 'voiceAction', input: { action: 'cancelItem', index: 1 } });
    api.emit({ channel: 'voice', event: { type: 'draftBatchUpdated', batch: null } });
    await tick();
    expect(screen.queryByRole('region', { name: '确认卡片' })).toBeNull();
  });

  it('holds the mic with Space in push-to-talk mode, but not while typing', async () => {
    const api = new FakeVoiceApi();
    api.set('listening', { mode: 'pushToTalk' });
    await open(api);
    await fireEvent.keyDown(window, { code: 'Space', key: ' ' });
    await fireEvent.keyDown(window, { code: 'Space', key: ' ', repeat: true });
    await fireEvent.keyUp(window, { code: 'Space', key: ' ' });
    await fireEvent.keyDown(screen.getByRole('textbox'), { code: 'Space', key: ' ' });
    expect(api.calls.filter((c) => c.name === 'voicePushToTalk').map((c) => c.input)).toEqual([{ action: 'down' }, { action: 'up' }]);
  });

  it('switches modes through the orchestrator', async () => {
    const api = await open();
    api.set('idle', { mode: 'keyboard' });
    await fireEvent.click(screen.getByRole('radio', { name: '键盘' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'voiceSetMode', input: { mode: 'keyboard' } });
    expect(screen.getByRole('radio', { name: '键盘' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.queryByRole('button', { name: /说话|聆听/ })).toBeNull();
  });

  it('ENDED shows the summary and restart; Esc leaves the page', async () => {
    const api = await open();
    api.emit({ channel: 'voice', event: { type: 'exitSession', summary: { savedCount: 3, expenseFen: 12000, incomeFen: 9000, transferFen: 0 } } });
    await tick();
    const summary = screen.getByRole('region', { name: '会话总结' });
    expect(summary.textContent).toContain('共记录 3 笔');
    expect(summary.textContent).toContain('¥120.00');
    expect(screen.queryByRole('textbox')).toBeNull();
    api.set('listening');
    await fireEvent.click(within(summary).getByRole('button', { name: '重新开始' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'voiceAction', input: { action: 'restart' } });
    expect(screen.queryByRole('region', { name: '会话总结' })).toBeNull();

    api.emit({ channel: 'voice', event: { type: 'sessionTimeout', summary: { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0 } } });
    await tick();
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(location.hash).toBe('#/ledger');
  });

  it('ENDED with drafts left lists them under 未确认; 继续确认 restarts into their card', async () => {
    const api = await open();
    const left = batchOf([
      { amount: null, category: '交通', description: '打车' },
      { amount: 35, description: '午饭' },
    ]);
    const unconfirmed = left.items.map((i) => i.result);
    api.emit({
      channel: 'voice',
      event: { type: 'exitSession', summary: { savedCount: 1, expenseFen: 6000, incomeFen: 0, transferFen: 0, unconfirmed } },
    });
    await tick();
    const summary = screen.getByRole('region', { name: '会话总结' });
    expect(within(summary).getByRole('heading', { name: /未确认/ })).toBeTruthy();
    const list = within(summary).getByRole('list', { name: '未确认' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/\s+/g, ' ').trim()),
    ).toEqual(['打车 缺金额', '午饭 ¥35.00']);
    const buttons = within(summary).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['查看明细（Esc）', '继续确认']);
    expect(buttons.map((b) => b.classList.contains('primary'))).toEqual([false, true]);
    expect(screen.getByRole('list', { name: '对话记录' }).textContent).toContain('2 笔未确认');

    api.set('confirming', { batch: left, summary: null });
    await fireEvent.click(within(summary).getByRole('button', { name: '继续确认' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'voiceAction', input: { action: 'restart' } });
    expect(screen.queryByRole('region', { name: '会话总结' })).toBeNull();
    const card = screen.getByRole('region', { name: '确认卡片' });
    expect(within(card).getAllByRole('listitem')).toHaveLength(2);
    expect(within(card).getByText('缺金额')).toBeTruthy();
  });

  it('ENDED without drafts left has no 未确认 and restart stays the primary action', async () => {
    const api = await open();
    api.emit({
      channel: 'voice',
      event: { type: 'exitSession', summary: { savedCount: 0, expenseFen: 0, incomeFen: 0, transferFen: 0, unconfirmed: [] } },
    });
    await tick();
    const summary = screen.getByRole('region', { name: '会话总结' });
    expect(summary.textContent).not.toContain('未确认');
    expect(within(summary).queryByRole('button', { name: '继续确认' })).toBeNull();
    expect(within(summary).getByRole('button', { name: '重新开始' }).classList.contains('primary')).toBe(true);
  });
});

/** The voice fake with the model commands and the settings of a user who never chose an engine. */
function withModels(connection: 'offline' | 'gateway' = 'offline') {
  const voice = new FakeVoiceApi();
  const models = new FakeModelsApi((event) => voice.emit(event));
  const settings = settingsSchema.parse({ connection: { mode: connection } });
  const settingsGet = async (): Promise<IpcResult<SettingsView>> => ({
    ok: true,
    value: {
      settings,
      secrets: { gatewayApiKey: { stored: false, mask: null }, dashscopeApiKey: { stored: false, mask: null } },
      secretStorageAvailable: true,
      dataDir: '/d',
    },
  });
  const api = Object.assign(voice, {
    settingsGet,
    modelList: models.modelList,
    modelDownload: models.modelDownload,
    modelCancel: models.modelCancel,
    modelDelete: models.modelDelete,
    modelActivate: models.modelActivate,
    modelUseFolder: models.modelUseFolder,
  });
  return { api, models, voiceCalls: () => voice.calls.filter((c) => c.name !== 'voiceSnapshot') };
}

const MB = 1024 * 1024;

describe('the mic’s first use with on-device recognition', () => {
  it('asks before starting the mic, shows the download, and starts the mic once the model is ready', async () => {
    const t = withModels();
    await open(t.api);
    await tick();
    await fireEvent.click(screen.getByRole('button', { name: '开始聆听' }));
    await tick();
    // Nothing was asked of the voice session yet: the dialog comes first.
    expect(t.voiceCalls()).toEqual([]);
    const dialog = screen.getByRole('dialog', { name: '下载语音模型' });
    expect(dialog.textContent).toContain(SMALL_MODEL.name);
    expect(dialog.textContent).toContain('下载大小 70.6 MB');

    await fireEvent.click(within(dialog).getByRole('button', { name: '下载并开始' }));
    await tick();
    t.api.emit({
      channel: 'models',
      event: {
        type: 'progress',
        id: SMALL_MODEL.id,
        progress: { receivedBytes: 35.3 * MB, totalBytes: 74_004_050, percent: 50, bytesPerSecond: 2 * MB },
      },
    });
    await tick();
    expect((within(dialog).getByRole('progressbar', { name: '下载进度' }) as HTMLProgressElement).value).toBe(50);
    expect(within(dialog).getByRole('status').textContent).toBe('35.3 MB / 70.6 MB · 50.0% · 2.0 MB/s');

    t.models.finishDownload();
    await tick();
    await tick();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(t.voiceCalls()).toEqual([{ name: 'voiceStart', input: { mode: 'auto' } }]);
  });

  it('opens when main says the model is missing (e.g. the global hotkey), and 改用键盘输入 switches to typing', async () => {
    const t = withModels();
    await open(t.api);
    t.api.emit({ channel: 'voice', event: { type: 'error', code: 'asr_model_missing', message: '本地语音识别需要先下载语音模型' } });
    await tick();
    const dialog = screen.getByRole('dialog', { name: '下载语音模型' });
    // The log keeps the sentence with a way back to the dialog.
    expect(screen.getByRole('button', { name: '下载语音模型' })).toBeTruthy();
    await fireEvent.click(within(dialog).getByRole('button', { name: '改用键盘输入' }));
    await tick();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(t.voiceCalls()).toEqual([{ name: 'voiceSetMode', input: { mode: 'keyboard' } }]);
    await fireEvent.click(screen.getByRole('button', { name: '下载语音模型' }));
    await tick();
    expect(screen.getByRole('dialog', { name: '下载语音模型' })).toBeTruthy();
  });

  it('opens at once when the shell sent the user here for the model (记账?setup=model), and not otherwise', async () => {
    router.go('session', { setup: 'model' });
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    const sent = withModels();
    await open(sent.api);
    expect(screen.getByRole('dialog', { name: '下载语音模型' })).toBeTruthy();
    cleanup();
    router.go('session');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await open(withModels().api);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('取消 during the download stops it and closes; a failure stays in the dialog with a retry', async () => {
    const t = withModels();
    await open(t.api);
    await tick();
    await fireEvent.click(screen.getByRole('button', { name: '开始聆听' }));
    await tick();
    const dialog = screen.getByRole('dialog', { name: '下载语音模型' });
    await fireEvent.click(within(dialog).getByRole('button', { name: '下载并开始' }));
    await tick();
    t.models.failDownload('not_found', '服务器上没有这个模型文件（404），请稍后再试。');
    await tick();
    await tick();
    expect(within(dialog).getByRole('alert').textContent).toBe('服务器上没有这个模型文件（404），请稍后再试。');
    await fireEvent.click(within(dialog).getByRole('button', { name: '下载并开始' }));
    await tick();
    expect(t.models.downloading).toBe(true);
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    await tick();
    await tick();
    expect(t.models.downloading).toBe(false);
    expect(t.models.calls.filter((c) => c.name === 'modelCancel')).toEqual([{ name: 'modelCancel', input: { id: SMALL_MODEL.id } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(t.voiceCalls()).toEqual([]);
  });

  it('starts the mic at once for a cloud user or once a model is ready', async () => {
    const cloud = withModels('gateway');
    await open(cloud.api);
    await tick();
    await fireEvent.click(screen.getByRole('button', { name: '开始聆听' }));
    await tick();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(cloud.voiceCalls()).toEqual([{ name: 'voiceStart', input: { mode: 'auto' } }]);
    cleanup();

    const ready = withModels();
    ready.models.listing.ready = true;
    await open(ready.api);
    await tick();
    await fireEvent.click(screen.getByRole('button', { name: '开始聆听' }));
    await tick();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(ready.voiceCalls()).toEqual([{ name: 'voiceStart', input: { mode: 'auto' } }]);
  });
});
