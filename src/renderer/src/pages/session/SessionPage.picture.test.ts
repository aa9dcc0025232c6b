import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES } from '@shared/ipc/pictures';
import { batchOf } from '../../../../../test/support/renderer/card-fixtures';
import { FakePictureApi } from '../../../../../test/support/renderer/fake-picture-api';
import { FakeVoiceApi } from '../../../../../test/support/renderer/fake-voice-api';
import QuickEntryPage from '../quick/QuickEntryPage.svelte';
import SessionPage from './SessionPage.svelte';

// 记账 and the quick-entry box take a picture three ways (dropped, pasted, 打开图片…), read
// its bytes here and hand them to main; main's answer is the session's card. Against a fake
// main: what is sent, what shows while main reads, and what is refused before anything is sent.

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => cleanup());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** What a drop or a paste carries, as Chromium fills it in (jsdom has no DataTransfer). */
function carrying(files: File[], types: string[] = files.length ? ['Files'] : []): DataTransfer {
  return { files, items: files.map((f) => ({ kind: 'file', type: f.type, getAsFile: () => f })), types } as unknown as DataTransfer;
}

function pictureCard(api: FakePictureApi) {
  api.set('confirming', {
    batch: {
      ...batchOf([
        { amount: 23.9, category: '餐饮', description: '瑞幸咖啡' },
        { amount: 12, category: '餐饮', description: '面包' },
      ]),
      picture: { name: '粘贴的图片.png' },
    },
  });
}

async function open(api: FakeVoiceApi = new FakePictureApi(), page: typeof SessionPage | typeof QuickEntryPage = SessionPage) {
  render(page, { props: { api: api as FakePictureApi & { windowAction: never } } });
  await tick();
  return api;
}

const pictureButton = () => screen.queryByRole('button', { name: '打开图片…' });

describe('记账: a picture in', () => {
  it('pastes a screenshot from the clipboard: its bytes go to main, 正在识别图片… shows, the window keeps answering, then the card', async () => {
    const api = (await open()) as FakePictureApi;
    pictureCard(api);
    api.holdNext();
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', { value: carrying([new File([PNG], 'image.png', { type: 'image/png' })]) });
    document.body.dispatchEvent(paste);
    expect(paste.defaultPrevented).toBe(true);
    await tick();
    expect(screen.getByRole('status', { name: '' }).textContent).toContain('正在识别图片…');
    expect(pictureButton()!.hasAttribute('disabled')).toBe(true);
    // While main reads, typing still works.
    const input = screen.getByRole('textbox', { name: '文字输入' }) as HTMLInputElement;
    await fireEvent.input(input, { target: { value: '打车20' } });
    await fireEvent.submit(input.form!);
    await tick();
    expect(api.calls.some((c) => c.name === 'voiceText')).toBe(true);
    api.release();
    await tick();
    await tick();
    expect(api.pictures.map((p) => [p.name, Array.from(p.bytes)])).toEqual([['粘贴的图片.png', Array.from(PNG)]]);
    const card = screen.getByRole('region', { name: '确认卡片' });
    expect(card.textContent).toContain('来自图片');
    expect(card.textContent).toContain('粘贴的图片.png');
    expect(within(card).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByText('正在识别图片…')).toBeNull();
  });

  it('leaves a text paste into the text field to the field, even when a picture comes with the text', async () => {
    const api = (await open()) as FakePictureApi;
    const input = screen.getByRole('textbox', { name: '文字输入' });
    for (const data of [
      carrying([], ['text/plain']),
      carrying([new File([PNG], 'image.png', { type: 'image/png' })], ['text/plain', 'text/html', 'Files']),
    ]) {
      const paste = new Event('paste', { bubbles: true, cancelable: true });
      Object.defineProperty(paste, 'clipboardData', { value: data });
      input.dispatchEvent(paste);
      expect(paste.defaultPrevented).toBe(false);
    }
    await tick();
    expect(api.pictures).toEqual([]);
  });

  it('reads a dropped picture under its own name, and refuses a file that is no picture in one line without sending it', async () => {
    const api = (await open()) as FakePictureApi;
    await fireEvent.drop(window, { dataTransfer: carrying([new File(['%PDF-1.4'], '账单.pdf', { type: 'application/pdf' })]) });
    expect(screen.getByRole('alert').textContent).toBe('「账单.pdf」不是图片：请用 PNG、JPEG 或 WebP 格式的截图或照片。');
    expect(api.pictures).toEqual([]);
    pictureCard(api);
    // A HEIC from a phone has no MIME type on Linux: main sniffs it and says what to do.
    api.pictureFails = { code: 'bad_picture', message: '这是 HEIC 图片，请先转成 JPG' };
    await fireEvent.drop(window, { dataTransfer: carrying([new File([PNG], 'IMG_0001.HEIC', { type: '' })]) });
    await tick();
    expect(api.pictures.map((p) => p.name)).toEqual(['IMG_0001.HEIC']);
    expect(screen.getByRole('alert').textContent).toBe('这是 HEIC 图片，请先转成 JPG');
    expect(screen.queryByRole('region', { name: '确认卡片' })).toBeNull();
    await fireEvent.drop(window, { dataTransfer: carrying([new File([PNG], '小票.png', { type: 'image/png' })]) });
    await tick();
    expect(api.pictures.map((p) => p.name)).toEqual(['IMG_0001.HEIC', '小票.png']);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('region', { name: '确认卡片' })).toBeTruthy();
  });

  it('reads a picture dropped before main said whether pictures are read here, once it says so', async () => {
    const api = new FakePictureApi();
    pictureCard(api);
    api.holdNext();
    await open(api);
    expect(pictureButton()).toBeNull();
    await fireEvent.drop(window, { dataTransfer: carrying([new File([PNG], '截图.png', { type: 'image/png' })]) });
    await tick();
    expect(api.pictures).toEqual([]);
    api.release();
    await tick();
    await tick();
    expect(api.pictures.map((p) => p.name)).toEqual(['截图.png']);
    expect(screen.getByRole('region', { name: '确认卡片' })).toBeTruthy();
  });

  it('refuses a picture over the size limit before reading it', async () => {
    const api = (await open()) as FakePictureApi;
    await fireEvent.drop(window, { dataTransfer: carrying([new File([new Uint8Array(MAX_PICTURE_BYTES + 1)], '全景.jpg', { type: 'image/jpeg' })]) });
    expect(screen.getByRole('alert').textContent).toBe(`「全景.jpg」太大（超过 ${MAX_PICTURE_BYTES / 1024 / 1024} MB），请用截图或缩小后的照片。`);
    expect(api.pictures).toEqual([]);
  });

  it('打开图片… asks main for its dialog; a closed dialog says nothing, a refusal says main’s line', async () => {
    const api = (await open()) as FakePictureApi;
    api.openAnswer = null;
    await fireEvent.click(pictureButton()!);
    await tick();
    expect(api.calls.filter((c) => c.name === 'pictureOpen')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    api.pictureFails = { code: 'no_payment', message: '图片里没有找到付款信息' };
    await fireEvent.click(pictureButton()!);
    await tick();
    expect(screen.getByRole('alert').textContent).toBe('图片里没有找到付款信息');
    api.openAnswer = 'snapshot';
    pictureCard(api);
    await fireEvent.click(pictureButton()!);
    await tick();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('region', { name: '确认卡片' })).toBeTruthy();
  });

  it('hides every way in where this computer cannot read pictures, and a drop says why', async () => {
    const api = new FakePictureApi();
    api.support = { available: false, reason: '这个平台没有图片识别组件' };
    await open(api);
    expect(pictureButton()).toBeNull();
    expect(screen.queryByText(/拖入或粘贴/)).toBeNull();
    await fireEvent.drop(window, { dataTransfer: carrying([new File([PNG], '截图.png', { type: 'image/png' })]) });
    expect(screen.getByRole('alert').textContent).toBe('这台电脑不能识别图片：这个平台没有图片识别组件');
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', { value: carrying([new File([PNG], 'image.png', { type: 'image/png' })]) });
    document.body.dispatchEvent(paste);
    await tick();
    expect(api.pictures).toEqual([]);
    cleanup();
    // A window API without the picture commands: nothing about pictures at all.
    await open(new FakeVoiceApi());
    expect(pictureButton()).toBeNull();
    await fireEvent.drop(window, { dataTransfer: carrying([new File([PNG], '截图.png', { type: 'image/png' })]) });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('快速记账: a picture in', () => {
  it('offers 打开图片… and takes a pasted screenshot onto its card', async () => {
    const api = new FakePictureApi();
    Object.assign(api, { windowAction: () => Promise.resolve({ ok: true, value: undefined }) });
    await open(api, QuickEntryPage);
    expect(pictureButton()).toBeTruthy();
    pictureCard(api);
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', { value: carrying([new File([PNG], 'image.png', { type: 'image/png' })]) });
    document.body.dispatchEvent(paste);
    await tick();
    await tick();
    expect(api.pictures.map((p) => p.name)).toEqual(['粘贴的图片.png']);
    expect(screen.getByRole('region', { name: '确认卡片' }).textContent).toContain('来自图片');
  });
});
