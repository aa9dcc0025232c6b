import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcError, IpcResult } from '@shared/ipc/index';
import { settingsSchema, type SettingsSaveInput, type SettingsView } from '@shared/ipc/app-settings';
import type { PictureSupport } from '@shared/ipc/pictures';
import SettingsPage from './SettingsPage.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** 设置's commands with pictures: a save of `pictures` changes what the next read returns. */
class FakeApi {
  view: SettingsView = {
    settings: settingsSchema.parse({}),
    secrets: { gatewayApiKey: { stored: false, mask: null }, dashscopeApiKey: { stored: false, mask: null } },
    secretStorageAvailable: true,
    dataDir: '/home/u/.config/随口记',
  };
  support: PictureSupport = { available: true, reason: null };
  saves: SettingsSaveInput[] = [];
  failSave: IpcError | null = null;

  settingsGet = async (): Promise<IpcResult<SettingsView>> => ({ ok: true, value: structuredClone(this.view) });
  settingsSave = async (input: SettingsSaveInput): Promise<IpcResult<SettingsView>> => {
    this.saves.push(input);
    if (this.failSave) return { ok: false, error: this.failSave };
    const lines = input.settings?.pictures?.receiptLines;
    if (lines) this.view.settings.pictures.receiptLines = lines;
    return { ok: true, value: structuredClone(this.view) };
  };
  settingsTest = async () => ({ ok: true as const, value: { ok: true, message: '' } });
  listMicrophones = async () => ({ ok: true as const, value: [] });
  pictureSupport = async (): Promise<IpcResult<PictureSupport>> => ({ ok: true, value: { ...this.support } });
}

afterEach(() => cleanup());

async function open(api = new FakeApi()) {
  render(SettingsPage, { props: { api } });
  await tick();
  await tick();
  return api;
}

const section = () => screen.getByRole('region', { name: '图片记账' });
const choice = (name: string) => within(section()).getByRole('radio', { name }) as HTMLInputElement;

describe('设置 → 图片记账', () => {
  it('shows the saved receipt choice and saves another as soon as it is chosen', async () => {
    const api = new FakeApi();
    api.view.settings.pictures.receiptLines = 'total';
    await open(api);
    expect(choice('只记实付总额').checked).toBe(true);
    expect(choice('每行一笔').checked).toBe(false);
    await fireEvent.click(choice('每行一笔'));
    await tick();
    expect(api.saves).toEqual([{ settings: { pictures: { receiptLines: 'items' } } }]);
    expect(choice('每行一笔').checked).toBe(true);
    expect(within(section()).getByRole('status').textContent).toBe('已保存。');
    expect(within(section()).queryByRole('note')).toBeNull();
  });

  it('a refused save shows main’s line and the saved choice again', async () => {
    const api = new FakeApi();
    api.failSave = { code: 'settings_failed', message: '设置文件无法写入' };
    await open(api);
    await fireEvent.click(choice('只记实付总额'));
    await tick();
    expect(within(section()).getByRole('alert').textContent).toBe('设置文件无法写入');
    expect(choice('每行一笔').checked).toBe(true);
    expect(choice('只记实付总额').checked).toBe(false);
  });

  it('says why pictures cannot be read on this computer', async () => {
    const api = new FakeApi();
    api.support = { available: false, reason: 'Intel 芯片的 Mac 没有图片识别组件' };
    await open(api);
    expect(within(section()).getByRole('note').textContent).toContain('这台电脑不能识别图片：Intel 芯片的 Mac 没有图片识别组件');
  });
});
