import { describe, expect, it } from 'vitest';
import { settingsSaveSchema, settingsSchema } from './app-settings';

describe('settingsSaveSchema', () => {
  it('leaves out what a save did not send: a section saved alone resets nothing of another', () => {
    // 设置's 保存语音设置 sends only the mode of the connection; the gateway address must stay.
    const patch = settingsSaveSchema.parse({ settings: { connection: { mode: 'gateway' }, vad: { silenceMs: 1500 } } });
    expect(patch.settings).toEqual({ connection: { mode: 'gateway' }, vad: { silenceMs: 1500 } });
    expect(patch.secrets).toEqual({});
  });

  it('still checks each field it is given, in Chinese', () => {
    const bad = settingsSaveSchema.safeParse({ settings: { connection: { gatewayUrl: 'ftp://x' } } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('应为 http:// 或 https:// 开头的地址');
    expect(settingsSaveSchema.safeParse({ settings: { connection: { colour: 'red' } } }).success).toBe(false);
  });
});

describe('settingsSchema', () => {
  it('fills every missing field of a stored file with its default', () => {
    expect(settingsSchema.parse({ connection: { mode: 'gateway' } }).connection).toEqual({
      mode: 'gateway',
      gatewayUrl: '',
      llmBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
      model: 'qwen-turbo',
    });
    expect(settingsSchema.parse({}).hotkey.pushToTalk).toBe('Ctrl+Alt+Space');
  });
});
