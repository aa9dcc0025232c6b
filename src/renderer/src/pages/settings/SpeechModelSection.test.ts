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
    expect(item().textContent).toContain('下载大小 70.6 MB');
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
    expect(item().textContent).toContain('占用磁盘 76.3 MB');
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
    expect(confirm.textContent).toContain('删除后本地识别需要重新下载模型才能使用');
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

  it('uses a folder the user has, and does nothing when the folder dialog is closed', async () => {
    const { api } = await open();
    await fireEvent.click(screen.getByRole('button', { name: '使用已有模型文件夹' }));
    await tick();
    expect(screen.queryByText(/已有模型文件夹：/)).toBeNull();
    api.pickedFolder = '/home/u/sherpa-onnx-streaming-zipformer-zh';
    await fireEvent.click(screen.getByRole('button', { name: '使用已有模型文件夹' }));
    await tick();
    const folder = screen.getByText(/已有模型文件夹：/);
    expect(folder.textContent).toContain('/home/u/sherpa-onnx-streaming-zipformer-zh');
    expect(folder.textContent).toContain('正在使用');
    expect(api.calls.filter((c) => c.name === 'modelUseFolder').map((c) => c.input)).toEqual([{}, {}]);
  });

  it('shows a refused folder’s reason', async () => {
    const { api } = await open();
    api.pickedFolder = '/home/u/empty';
    api.failNext = { code: 'incomplete', message: '这个文件夹里没有 tokens.txt，不是完整的语音模型。' };
    await fireEvent.click(screen.getByRole('button', { name: '使用已有模型文件夹' }));
    await tick();
    expect(screen.getByRole('alert').textContent).toBe('这个文件夹里没有 tokens.txt，不是完整的语音模型。');
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

  it('the chooser offers every source and sends the choice', async () => {
    const { api } = await openWith({});
    const select = screen.getByRole('combobox', { name: '下载源' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['GitHub', 'Hugging Face']);
    await fireEvent.change(select, { target: { value: 'huggingface' } });
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelSetSource', input: { source: 'huggingface' } });
  });

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
    expect(item().textContent).toContain('未校验');
    await fireEvent.click(within(item()).getByRole('button', { name: '下载' }));
    await tick();
    expect(api.calls.some((c) => c.name === 'modelDownload')).toBe(false);
    const ask = within(item()).getByRole('group', { name: '确认下载未校验的模型' });
    expect(ask.textContent).toContain('没有公开的校验值（SHA-256）');
    await fireEvent.click(within(ask).getByRole('button', { name: '仍要下载' }));
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelDownload', input: { id: SMALL_MODEL.id, acceptUnverified: true } });
  });
});
