import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import type { ModelInfo } from '@shared/ipc/models';
import { Listeners } from '@shared/listeners';
import { FakeModelsApi, SMALL_MODEL } from '../../../../../test/support/renderer/fake-models-api';
import FirstUseDialog from './FirstUseDialog.svelte';
import { SpeechModels } from './models.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));
afterEach(() => cleanup());

const SOURCES = [
  { id: 'github', label: 'GitHub', pinned: true, confirmed: true },
  { id: 'hf-mirror', label: 'HF 镜像（hf-mirror.com）', pinned: true, confirmed: false },
] as const;

async function open(change: Partial<ModelInfo> = {}) {
  const hub = new Listeners<{ event: (event: AppEvent) => void }>((error) => {
    throw error;
  });
  const emit = (event: AppEvent) => hub.emit('event', event);
  const api = Object.assign(new FakeModelsApi(emit), { onEvent: (l: (event: AppEvent) => void) => hub.on('event', l) });
  api.listing = { ...api.listing, models: [{ ...SMALL_MODEL, sources: [...SOURCES], ...change }] };
  const models = new SpeechModels(api);
  models.connect();
  await tick();
  let ready = 0;
  render(FirstUseDialog, { props: { models, onReady: () => ready++, onKeyboard: () => {}, onClose: () => {} } });
  await tick();
  return { api, emit, dialog: () => screen.getByRole('dialog', { name: '下载语音模型' }), ready: () => ready };
}

describe('the first-use dialog and the download source', () => {
  it('says which source will be used and offers the next one', async () => {
    const { api, dialog } = await open();
    const line = within(dialog()).getByTestId('first-use-source');
    expect(line.textContent).toMatch(/将从\s*GitHub\s*下载/);
    await fireEvent.click(within(dialog()).getByRole('button', { name: '换一个下载源（HF 镜像（hf-mirror.com））' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelSetSource', input: { source: 'hf-mirror' } });
  });

  it('during a download names the source in use; after a switch the new one, the bar unchanged', async () => {
    const { emit, dialog } = await open();
    await fireEvent.click(within(dialog()).getByRole('button', { name: '下载并开始' }));
    await tick();
    emit({ channel: 'models', event: { type: 'source', id: SMALL_MODEL.id, source: 'github', reason: null } });
    emit({
      channel: 'models',
      event: {
        type: 'progress',
        id: SMALL_MODEL.id,
        progress: { receivedBytes: 10, totalBytes: 40, percent: 25, bytesPerSecond: 0, source: 'github' },
      },
    });
    await tick();
    expect(within(dialog()).getByTestId('first-use-source').textContent).toMatch(/正在从\s*GitHub\s*下载/);
    emit({ channel: 'models', event: { type: 'source', id: SMALL_MODEL.id, source: 'hf-mirror', reason: '无法连接下载服务器，请检查网络' } });
    await tick();
    expect(within(dialog()).getByTestId('first-use-source').textContent).toMatch(/正在从\s*HF 镜像（hf-mirror\.com）\s*下载/);
    expect(within(dialog()).getByTestId('first-use-switch').textContent).toBe(
      '上一个下载源未能完成：无法连接下载服务器，请检查网络，已自动换到下一个下载源',
    );
    expect((within(dialog()).getByRole('progressbar', { name: '下载进度' }) as HTMLProgressElement).value).toBe(25);
  });

  it('an unverified model: the warning first, the download only after 「仍要下载」, with the consent sent', async () => {
    const { api, dialog } = await open({ unverified: true });
    expect(within(dialog()).queryByRole('button', { name: '下载并开始' })).toBeNull();
    expect(dialog().textContent).toContain('没有公开的校验值（SHA-256）');
    await fireEvent.click(within(dialog()).getByRole('button', { name: '我知道了，仍要下载' }));
    await tick();
    await fireEvent.click(within(dialog()).getByRole('button', { name: '下载并开始' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelDownload', input: { id: SMALL_MODEL.id, acceptUnverified: true } });
  });
});
