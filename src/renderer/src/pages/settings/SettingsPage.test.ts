import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '@shared/ipc/index';
import { settingsSchema, type ConnectionTestResult, type Microphone, type SettingsSaveInput, type SettingsView } from '@shared/ipc/app-settings';
import SettingsPage from './SettingsPage.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** The settings commands as main answers them, with the masking done by the test. */
class FakeSettingsApi {
  view: SettingsView = {
    settings: settingsSchema.parse({}),
    secrets: { gatewayApiKey: { stored: true, mask: '••••1234' }, dashscopeApiKey: { stored: false, mask: null } },
    secretStorageAvailable: true,
    dataDir: '/home/u/.config/随口记',
  };
  saves: SettingsSaveInput[] = [];
  tests: SettingsSaveInput[] = [];
  microphones: IpcResult<Microphone[]> = { ok: true, value: [{ id: 4, name: 'USB 麦克风', isDefault: true }] };

  settingsGet = async (): Promise<IpcResult<SettingsView>> => ({ ok: true, value: structuredClone(this.view) });
  settingsSave = async (input: SettingsSaveInput): Promise<IpcResult<SettingsView>> => {
    this.saves.push(input);
    const mode = input.settings?.connection?.mode;
    if (mode) this.view.settings.connection.mode = mode;
    return { ok: true, value: structuredClone(this.view) };
  };
  settingsTest = async (input: SettingsSaveInput): Promise<IpcResult<ConnectionTestResult>> => {
    this.tests.push(input);
    return { ok: false, error: { code: 'x', message: '无法连接网关，请检查地址和网络后重试。' } };
  };
  listMicrophones = async () => this.microphones;
}

afterEach(() => cleanup());

async function open(api = new FakeSettingsApi()) {
  render(SettingsPage, { props: { api } });
  await tick();
  await tick();
  return api;
}

describe('settings page', () => {
  it('shows the data folder, the microphones and a stored key only as a mask', async () => {
    await open();
    expect(screen.getByText('/home/u/.config/随口记')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: '麦克风' }) as HTMLSelectElement).options[1]?.textContent).toBe('USB 麦克风（默认）');
    await fireEvent.click(screen.getByRole('radio', { name: '通过网关' }));
    const key = screen.getByLabelText('网关 API Key') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.placeholder).toContain('••••1234');
  });

  it('says once why the hotkey is press-to-start, and nothing when hold-to-talk works', async () => {
    const api = new FakeSettingsApi();
    api.view.hotkey = { backend: 'toggle', accelerator: 'Ctrl+Alt+Space', reason: 'no-display' };
    await open(api);
    const notice = screen.getByTestId('hotkey-notice');
    expect(notice.textContent).toContain('没有可用的 X 显示');
    expect(notice.textContent).toContain('按一下 Ctrl+Alt+Space 开始');
    cleanup();

    const taken = new FakeSettingsApi();
    taken.view.hotkey = { backend: 'none', accelerator: 'Ctrl+F12', reason: 'taken' };
    await open(taken);
    expect(screen.getByTestId('hotkey-notice').textContent).toContain('已被其他程序占用');
    cleanup();

    const hold = new FakeSettingsApi();
    hold.view.hotkey = { backend: 'hold', accelerator: 'Ctrl+Alt+Space' };
    await open(hold);
    expect(screen.queryByTestId('hotkey-notice')).toBeNull();
  });

  it('sends a typed key, keeps an untouched one, and deletes on request', async () => {
    const api = await open();
    await fireEvent.click(screen.getByRole('radio', { name: '通过网关' }));
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await tick();
    expect(api.saves[0]?.secrets).toEqual({});
    expect(api.saves[0]?.settings?.connection?.mode).toBe('gateway');

    await fireEvent.input(screen.getByLabelText('网关 API Key'), { target: { value: 'new-key-5678' } });
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await tick();
    expect(api.saves[1]?.secrets).toEqual({ gatewayApiKey: 'new-key-5678' });

    await fireEvent.click(screen.getByRole('checkbox', { name: /删除已保存的网关密钥/ }));
    await fireEvent.click(screen.getByRole('button', { name: '保存' }));
    await tick();
    expect(api.saves[2]?.secrets).toEqual({ gatewayApiKey: null });
  });

  it('tests the connection with the unsaved form and shows the sentence', async () => {
    const api = await open();
    await fireEvent.click(screen.getByRole('radio', { name: '通过网关' }));
    await fireEvent.input(screen.getByLabelText('网关地址'), { target: { value: 'http://10.0.0.2:8080' } });
    await fireEvent.click(screen.getByRole('button', { name: '测试连接' }));
    await tick();
    expect(api.tests[0]?.settings?.connection?.gatewayUrl).toBe('http://10.0.0.2:8080');
    expect(screen.getByRole('status', { name: '连接测试结果' }).textContent).toContain('无法连接网关');
    expect(api.saves).toEqual([]);
  });

  it('shows on-device recognition as the engine when none was chosen, and keeps it automatic on save', async () => {
    const api = await open();
    const group = screen.getByRole('radiogroup', { name: '语音识别服务' });
    expect((screen.getByRole('radio', { name: '本地识别（离线）' }) as HTMLInputElement).checked).toBe(true);
    expect(group.textContent).toContain('DashScope');
    expect(group.textContent).toContain('FunASR');
    await fireEvent.click(screen.getByRole('checkbox', { name: '朗读识别结果' }));
    await fireEvent.submit(screen.getByRole('button', { name: '保存' }).closest('form')!);
    await tick();
    expect(api.saves[0]?.settings?.asr).toEqual({ funasrUrl: '' });

    await fireEvent.click(screen.getByRole('radio', { name: 'DashScope 实时识别' }));
    expect(screen.getByText(/DashScope 需要先在「连接方式」中选择网关或直连/)).toBeTruthy();
    await fireEvent.submit(screen.getByRole('button', { name: '保存' }).closest('form')!);
    await tick();
    expect(api.saves[1]?.settings?.asr).toEqual({ provider: 'dashscope', funasrUrl: '' });
  });

  it('shows DashScope for a cloud user who never chose', async () => {
    const api = new FakeSettingsApi();
    api.view.settings.connection.mode = 'gateway';
    await open(api);
    expect((screen.getByRole('radio', { name: 'DashScope 实时识别' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says how to go on without a microphone list', async () => {
    const api = new FakeSettingsApi();
    api.microphones = { ok: false, error: { code: 'audio_unavailable', message: '无法读取麦克风列表：请确认已连接麦克风。' } };
    await open(api);
    expect(screen.getByText('无法读取麦克风列表：请确认已连接麦克风。')).toBeTruthy();
  });
});
