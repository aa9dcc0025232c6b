import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '@shared/events';
import { Listeners } from '@shared/listeners';
import { FakeModelsApi, SMALL_MODEL } from '../../../../../test/support/renderer/fake-models-api';
import SpeechModelAdvanced from './SpeechModelAdvanced.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

function fakeApi() {
  const hub = new Listeners<{ event: (event: AppEvent) => void }>((error) => {
    throw error;
  });
  const emit = (event: AppEvent) => hub.emit('event', event);
  const models = new FakeModelsApi(emit);
  return { api: Object.assign(models, { onEvent: (l: (event: AppEvent) => void) => hub.on('event', l) }), emit };
}

afterEach(() => cleanup());

async function open(change: Partial<ReturnType<typeof fakeApi>['api']['listing']> = {}) {
  const fake = fakeApi();
  fake.api.listing = { ...fake.api.listing, ...change };
  render(SpeechModelAdvanced, { props: { api: fake.api } });
  await tick();
  await tick();
  return fake;
}

describe('speech models under 高级', () => {
  it('says what each model is, technically, and which cannot be checked', async () => {
    const fake = fakeApi();
    await open({ models: [{ ...SMALL_MODEL, unverified: true }, ...fake.api.listing.models.slice(1)] });
    const entry = within(screen.getByRole('list', { name: '模型说明' })).getByRole('listitem', { name: SMALL_MODEL.name });
    expect(entry.textContent).toContain(SMALL_MODEL.description);
    expect(entry.textContent).toContain('未校验');
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

  it('the chooser offers every source and sends the choice', async () => {
    const { api } = await open({
      source: null,
      sourceChoices: [
        { id: 'github', label: 'GitHub' },
        { id: 'huggingface', label: 'Hugging Face' },
      ],
    });
    const select = screen.getByRole('combobox', { name: '下载源' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['GitHub', 'Hugging Face']);
    await fireEvent.change(select, { target: { value: 'huggingface' } });
    await tick();
    expect(api.calls.at(-1)).toEqual({ name: 'modelSetSource', input: { source: 'huggingface' } });
  });
});
