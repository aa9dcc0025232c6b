import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import { Listeners } from '@shared/listeners';
import { FakeModelsApi, SMALL_MODEL } from '../../../../../test/support/renderer/fake-models-api';
import SpeechModelSection from './SpeechModelSection.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));
const MB = 1024 * 1024;

function fakeApi() {
  const hub = new Listeners<{ event: (event: AppEvent) => void }>((error) => {
    throw error;
  });
  const emit = (event: AppEvent) => hub.emit('event', event);
  const models = new FakeModelsApi(emit);
  return { api: Object.assign(models, { onEvent: (l: (event: AppEvent) => void) => hub.on('event', l) }), emit };
}

afterEach(() => cleanup());

async function open() {
  const fake = fakeApi();
  render(SpeechModelSection, { props: { api: fake.api } });
  await tick();
  await tick();
  return fake;
}

const item = () => screen.getByRole('listitem', { name: SMALL_MODEL.name });

describe('speech model section', () => {
  it('lists the model with its size and state, and downloads it with a real progress bar', async () => {
    const { api, emit } = await open();
    expect(item().textContent).toContain('推荐');
    expect(item().textContent).toContain('下载 70.6 MB');
    expect(within(item()).getByTestId('model-state').textContent).toBe('未下载');

    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelDownload', input: { id: SMALL_MODEL.id } });
    emit({
      channel: 'models',
      event: {
        type: 'progress',
        id: SMALL_MODEL.id,
        progress: { receivedBytes: 12.3 * MB, totalBytes: 74_004_050, percent: 17.4, bytesPerSecond: 1.25 * MB },
      },
    });
    await tick();
    const bar = within(item()).getByRole('progressbar', { name: '下载进度' }) as HTMLProgressElement;
    expect(bar.value).toBe(17.4);
    expect(within(item()).getByRole('status').textContent).toBe('12.3 MB / 70.6 MB · 17.4% · 1.3 MB/s');
    expect(within(item()).getByTestId('model-state').textContent).toBe('正在下载');
    emit({
      channel: 'models',
      event: {
        type: 'progress',
        id: SMALL_MODEL.id,
        progress: { receivedBytes: 40 * MB, totalBytes: 74_004_050, percent: 56.7, bytesPerSecond: 800 * 1024 },
      },
    });
    await tick();
    expect(within(item()).getByRole('status').textContent).toContain('800 KB/s');

    emit({ channel: 'models', event: { type: 'state', id: SMALL_MODEL.id, state: 'extracting', error: null } });
    await tick();
    expect(within(item()).getByRole('status').textContent).toBe('正在解压…');

    api.finishDownload();
    await tick();
    await tick();
    expect(within(item()).getByTestId('model-state').textContent).toBe('已就绪');
    expect(item().textContent).toContain('正在使用');
    expect(item().textContent).toContain('占用 76.3 MB');
    expect(within(item()).queryByRole('progressbar')).toBeNull();
  });

  it('cancels a download under way', async () => {
    const { api } = await open();
    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    await tick();
    await fireEvent.click(within(item()).getByRole('button', { name: '取消' }));
    await tick();
    await tick();
    expect(api.calls.map((c) => c.name)).toEqual(['modelList', 'modelDownload', 'modelCancel', 'modelList']);
    expect(api.downloading).toBe(false);
    expect(within(item()).getByRole('button', { name: '下载' })).toBeTruthy();
    // Cancelling is what the user asked for: no error is shown.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a failed download in Chinese and offers to try again', async () => {
    const { api } = await open();
    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    await tick();
    api.failDownload('network', '网络连接中断，请检查网络后重试；已下载的部分会保留。');
    await tick();
    await tick();
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['网络连接中断，请检查网络后重试；已下载的部分会保留。']);
    expect(within(item()).getByRole('alert')).toBeTruthy();
    expect(within(item()).getByTestId('model-state').textContent).toBe('下载失败');
    expect(within(item()).getByRole('button', { name: '重试下载' })).toBeTruthy();
  });

  it('deletes only after the confirm step, and re-downloads', async () => {
    const { api } = await open();
    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    api.finishDownload();
    await tick();
    await tick();
    await fireEvent.click(within(item()).getByRole('button', { name: '删除' }));
    const confirm = within(item()).getByRole('group', { name: '确认删除' });
    expect(confirm.textContent).toContain('删除后离线识别要重新下载才能使用');
    await fireEvent.click(within(confirm).getByRole('button', { name: '取消' }));
    expect(api.calls.some((c) => c.name === 'modelDelete')).toBe(false);
    await fireEvent.click(within(item()).getByRole('button', { name: '删除' }));
    await fireEvent.click(within(item()).getByRole('button', { name: '确认删除' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelDelete', input: { id: SMALL_MODEL.id } });
    expect(within(item()).getByTestId('model-state').textContent).toBe('未下载');

    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    api.finishDownload();
    await tick();
    await tick();
    await fireEvent.click(within(item()).getByRole('button', { name: '重新下载' }));
    await tick();
    expect(api.calls.slice(-2).map((c) => c.name)).toEqual(['modelDelete', 'modelDownload']);
  });

  it('offers to continue an interrupted download', async () => {
    const fake = fakeApi();
    fake.api.listing.models[0] = { ...SMALL_MODEL, partialBytes: 30 * MB };
    render(SpeechModelSection, { props: { api: fake.api } });
    await tick();
    await tick();
    expect(item().textContent).toContain('已下载 30.0 MB，会从中断处继续');
    await fireEvent.click(within(item()).getByRole('button', { name: '继续下载' }));
    expect(fake.api.calls.at(-1)).toEqual({ name: 'modelDownload', input: { id: SMALL_MODEL.id } });
  });

  it('shows a folder in use only as a plain line (its details are under 高级)', async () => {
    const fake = fakeApi();
    fake.api.listing = { ...fake.api.listing, folder: { path: '/home/u/sherpa', diskBytes: 70 * MB, active: true } };
    render(SpeechModelSection, { props: { api: fake.api } });
    await tick();
    await tick();
    expect(screen.getByText('正在使用自己准备的模型文件夹（见「高级」）。')).toBeTruthy();
    expect(screen.queryByText(/\/home\/u\/sherpa/)).toBeNull();
    expect(screen.queryByRole('button', { name: '使用已有模型文件夹' })).toBeNull();
  });
});

describe('download sources and unverified models', () => {
  const SOURCES = [
    { id: 'github', label: 'GitHub', pinned: true, confirmed: true },
    { id: 'huggingface', label: 'Hugging Face', pinned: false, confirmed: false },
  ] as const;

  async function openWith(change: Partial<typeof SMALL_MODEL>) {
    const fake = fakeApi();
    fake.api.listing = {
      ...fake.api.listing,
      models: [{ ...SMALL_MODEL, sources: [...SOURCES], ...change }],
      source: null,
      sourceChoices: [
        { id: 'github', label: 'GitHub' },
        { id: 'huggingface', label: 'Hugging Face' },
      ],
    };
    render(SpeechModelSection, { props: { api: fake.api } });
    await tick();
    await tick();
    return fake;
  }

  it('says which source is in use, and a switch keeps the bar where it was', async () => {
    const { emit } = await openWith({});
    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    await tick();
    emit({ channel: 'models', event: { type: 'source', id: SMALL_MODEL.id, source: 'github', reason: null } });
    emit({
      channel: 'models',
      event: {
        type: 'progress',
        id: SMALL_MODEL.id,
        progress: { receivedBytes: 30 * MB, totalBytes: 60 * MB, percent: 50, bytesPerSecond: 0, source: 'github' },
      },
    });
    await tick();
    expect(within(item()).getByTestId('model-source').textContent).toBe('正在从 GitHub 下载');
    emit({ channel: 'models', event: { type: 'source', id: SMALL_MODEL.id, source: 'huggingface', reason: '下载停滞超过 30 秒没有进展' } });
    await tick();
    expect(within(item()).getByTestId('model-source').textContent).toBe('正在从 Hugging Face 下载');
    expect((within(item()).getByRole('progressbar', { name: '下载进度' }) as HTMLProgressElement).value).toBe(50);
  });

  it('an unverified model asks once before it is downloaded, then sends the consent', async () => {
    const { api } = await openWith({ unverified: true });
    // The list speaks plainly: no 未校验 and no checksum names until the question is asked.
    expect(item().textContent).not.toContain('未校验');
    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    await tick();
    expect(api.calls.some((c) => c.name === 'modelDownload')).toBe(false);
    const ask = within(item()).getByRole('group', { name: '确认下载无法核对的模型' });
    expect(ask.textContent).toContain('无法确认下载到的就是官方发布的文件');
    await fireEvent.click(within(ask).getByRole('button', { name: '仍要下载' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelDownload', input: { id: SMALL_MODEL.id, acceptUnverified: true } });
  });
});
