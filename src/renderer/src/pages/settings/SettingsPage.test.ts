import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
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

const advanced = () => screen.getByRole('form', { name: '联网服务' });
const voiceForm = () => screen.getByRole('form', { name: '语音' });

describe('settings page', () => {
  it('puts the everyday choices first, in plain words, and the technical ones under a closed 高级', async () => {
    await open();
    const page = screen.getByRole('region', { name: '设置' });
    const details = page.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('高级');
    // Outside 高级: no developer words.
    const everyday = [...page.children]
      .filter((el) => el !== details)
      .map((el) => el.textContent ?? '')
      .join('\n');
    for (const word of ['网关', 'DashScope', 'FunASR', '下载源', '参数', 'int8', '未校验', 'API Key']) expect(everyday).not.toContain(word);
    const voice = screen.getByRole('radiogroup', { name: '语音识别方式' });
    expect(within(voice).getByRole('radio', { name: /^离线/ })).toHaveProperty('checked', true);
    expect(within(voice).getByRole('radio', { name: /^联网更准/ })).toHaveProperty('checked', false);
    // Each section says what its button saves: no page-wide 保存.
    expect(screen.queryByRole('button', { name: '保存' })).toBeNull();
    expect(within(voiceForm()).getByRole('button', { name: '保存语音设置' })).toBeTruthy();
    expect(within(advanced()).getByRole('button', { name: '保存联网设置' })).toBeTruthy();
    expect(details.textContent).toContain('/home/u/.config/随口记');
  });

  it('shows the microphones and a stored key only as a mask', async () => {
    await open();
    expect((screen.getByRole('combobox', { name: '麦克风' }) as HTMLSelectElement).options[1]?.textContent).toBe('USB 麦克风（默认）');
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

  it('联网更准 saves the service chosen under 高级; 保存语音设置 sends no key and no address', async () => {
    const api = new FakeSettingsApi();
    api.view.settings.connection.gatewayUrl = 'http://10.0.0.2:8080';
    await open(api);
    await fireEvent.click(screen.getByRole('radio', { name: /^联网更准/ }));
    await fireEvent.input(screen.getByLabelText('网关地址'), { target: { value: 'http://typed.example:1' } });
    await fireEvent.click(screen.getByRole('button', { name: '保存语音设置' }));
    await tick();
    expect(api.saves).toHaveLength(1);
    expect(api.saves[0]?.secrets).toBeUndefined();
    expect(api.saves[0]?.settings?.connection).toEqual({ mode: 'gateway' });
    // Online without a choice of engine: it stays automatic (the cloud one).
    expect(api.saves[0]?.settings?.asr).toEqual({});
    expect(screen.getByRole('status').textContent).toBe('语音设置已保存。');
    // What was typed under 高级 and not saved is still there.
    expect((screen.getByLabelText('网关地址') as HTMLInputElement).value).toBe('http://typed.example:1');

    await fireEvent.click(screen.getByRole('radio', { name: /^离线/ }));
    await fireEvent.click(screen.getByRole('button', { name: '保存语音设置' }));
    await tick();
    expect(api.saves[1]?.settings?.connection).toEqual({ mode: 'offline' });
  });

  it('says in 语音 when 联网更准 has no service yet, and opens 高级 to fill it in', async () => {
    await open();
    const details = document.querySelector('details')!;
    await fireEvent.click(screen.getByRole('radio', { name: /^联网更准/ }));
    const fill = screen.getByRole('button', { name: '在「高级」里填写' });
    expect(fill.closest('p')?.textContent).toContain('联网要先填好联网服务的地址和密钥');
    await fireEvent.click(fill);
    expect(details.open).toBe(true);
    await fireEvent.input(screen.getByLabelText('网关地址'), { target: { value: 'http://10.0.0.2:8080' } });
    expect(screen.queryByRole('button', { name: '在「高级」里填写' })).toBeNull();
  });

  it('保存联网设置 sends a typed key, keeps an untouched one, deletes on request, and leaves 离线 as it is', async () => {
    const api = await open();
    const save = () => fireEvent.click(screen.getByRole('button', { name: '保存联网设置' }));
    await save();
    await tick();
    expect(api.saves[0]?.secrets).toEqual({});
    // Saved as 离线: the service is stored for later, 语音 stays offline.
    expect(api.saves[0]?.settings?.connection).toEqual({
      gatewayUrl: '',
      llmBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'qwen-turbo',
    });
    expect(screen.getByRole('status').textContent).toBe('联网设置已保存。');

    await fireEvent.input(screen.getByLabelText('网关 API Key'), { target: { value: 'new-key-5678' } });
    await save();
    await tick();
    expect(api.saves[1]?.secrets).toEqual({ gatewayApiKey: 'new-key-5678' });

    await fireEvent.click(screen.getByRole('checkbox', { name: /删除已保存的网关密钥/ }));
    await save();
    await tick();
    expect(api.saves[2]?.secrets).toEqual({ gatewayApiKey: null });
  });

  it('保存联网设置 switches the service of a household already online', async () => {
    const api = new FakeSettingsApi();
    api.view.settings.connection.mode = 'gateway';
    await open(api);
    await fireEvent.click(within(screen.getByRole('radiogroup', { name: '联网方式' })).getByRole('radio', { name: '直连 DashScope' }));
    await fireEvent.input(screen.getByLabelText('DashScope API Key'), { target: { value: 'sk-direct-9876' } });
    await fireEvent.click(screen.getByRole('button', { name: '保存联网设置' }));
    await tick();
    expect(api.saves[0]?.settings?.connection?.mode).toBe('direct');
    expect(api.saves[0]?.secrets).toEqual({ dashscopeApiKey: 'sk-direct-9876' });
  });

  it('tests the service as filled in, even while 语音 is 离线, and shows the sentence', async () => {
    const api = await open();
    await fireEvent.input(screen.getByLabelText('网关地址'), { target: { value: 'http://10.0.0.2:8080' } });
    await fireEvent.click(screen.getByRole('button', { name: '测试连接' }));
    await tick();
    expect(api.tests[0]?.settings?.connection).toMatchObject({ mode: 'gateway', gatewayUrl: 'http://10.0.0.2:8080' });
    expect(screen.getByRole('status', { name: '连接测试结果' }).textContent).toContain('无法连接网关');
    expect(api.saves).toEqual([]);
  });

  it('keeps the automatic engine automatic, and saves a chosen online engine', async () => {
    const api = await open();
    await fireEvent.click(screen.getByRole('checkbox', { name: '朗读识别结果' }));
    await fireEvent.submit(voiceForm());
    await tick();
    expect(api.saves[0]?.settings?.asr).toEqual({});

    await fireEvent.click(screen.getByRole('radio', { name: 'FunASR（自建）' }));
    expect(screen.getByLabelText('FunASR 地址')).toBeTruthy();
    await fireEvent.click(screen.getByRole('radio', { name: /^联网更准/ }));
    await fireEvent.submit(voiceForm());
    await tick();
    expect(api.saves[1]?.settings?.asr).toEqual({ provider: 'funasr' });
  });

  it('shows DashScope as the online engine of a cloud user who never chose', async () => {
    const api = new FakeSettingsApi();
    api.view.settings.connection.mode = 'gateway';
    await open(api);
    expect((screen.getByRole('radio', { name: /^联网更准/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'DashScope 实时识别' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says how to go on without a microphone list', async () => {
    const api = new FakeSettingsApi();
    api.microphones = { ok: false, error: { code: 'audio_unavailable', message: '无法读取麦克风列表：请确认已连接麦克风。' } };
    await open(api);
    expect(screen.getByText('无法读取麦克风列表：请确认已连接麦克风。')).toBeTruthy();
  });

  it('writes the sliders with one decimal and keeps a refused save as typed', async () => {
    const api = new FakeSettingsApi();
    api.settingsSave = async (input) => {
      api.saves.push(input);
      return { ok: false, error: { code: 'invalid_input', message: '快捷键应为「修饰键+按键」，例如 Ctrl+Alt+Space' } };
    };
    await open(api);
    expect(screen.getByText(/说完停顿 1\.0 秒算一句/)).toBeTruthy();
    expect(screen.getByText('朗读语速 1.0×')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText('按住说话快捷键'), { target: { value: 'Space' } });
    await fireEvent.click(screen.getByRole('button', { name: '保存语音设置' }));
    await tick();
    expect(screen.getByRole('alert').textContent).toContain('快捷键应为「修饰键+按键」');
    expect((screen.getByLabelText('按住说话快捷键') as HTMLInputElement).value).toBe('Space');
  });
});
