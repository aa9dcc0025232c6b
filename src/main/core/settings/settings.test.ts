import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { startGatewayHarness, type GatewayHarness } from '../../../../test/support/gateway/gateway-harness';
import { settingsSaveSchema, type SettingsSaveInput } from '@shared/ipc/app-settings';
import { FakeClock } from '@shared/clock';
import {
  createSettingsStore,
  SETTINGS_FILE,
  SettingsError,
  testConnection,
  unavailableSecretBox,
  voiceConfigFromSettings,
  type SecretBox,
} from './index';

/** Reversible and visibly different from the plain text, like safeStorage's output. */
const testBox: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from(`enc:${plain}`).toString('base64'),
  decrypt: (cipher) => {
    const text = Buffer.from(cipher, 'base64').toString();
    if (!text.startsWith('enc:')) throw new Error('bad cipher');
    return text.slice(4);
  },
};

const patch = (input: SettingsSaveInput) => settingsSaveSchema.parse(input);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-settings-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('settings store', () => {
  it('gives defaults without a file and creates none until a save', () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    expect(store.get()).toMatchObject({
      connection: { mode: 'offline' },
      asr: { funasrUrl: '' },
      vad: { silenceMs: 1000 },
      tts: { enabled: true, rate: 1 },
      hotkey: { pushToTalk: 'Ctrl+Alt+Space' },
      microphone: { deviceId: null },
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('saves, reloads, and never writes or shows a key in plain text', () => {
    const key = 'sk-verysecret-abcd';
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    const view = store.save(patch({ settings: { connection: { mode: 'direct' }, vad: { silenceMs: 1500 } }, secrets: { dashscopeApiKey: key } }));
    expect(view.secrets.dashscopeApiKey).toEqual({ stored: true, mask: '••••abcd' });
    expect(view.secrets.gatewayApiKey).toEqual({ stored: false, mask: null });
    expect(JSON.stringify(view)).not.toContain('verysecret');
    expect(readFileSync(join(dir, SETTINGS_FILE), 'utf8')).not.toContain('verysecret');

    const reopened = createSettingsStore({ dataDir: dir, secretBox: testBox });
    expect(reopened.get().connection.mode).toBe('direct');
    expect(reopened.get().vad.silenceMs).toBe(1500);
    expect(reopened.secret('dashscopeApiKey')).toBe(key);
  });

  it('keeps a secret when the save does not mention it and deletes it on null', () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    store.save(patch({ secrets: { gatewayApiKey: 'gateway-key-1234' } }));
    store.save(patch({ settings: { tts: { enabled: false } } }));
    expect(store.secret('gatewayApiKey')).toBe('gateway-key-1234');
    store.save(patch({ secrets: { gatewayApiKey: null } }));
    expect(store.secret('gatewayApiKey')).toBeNull();
    expect(store.view().secrets.gatewayApiKey.stored).toBe(false);
  });

  it('refuses to store a key without a keyring, and loses nothing else', () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: unavailableSecretBox });
    expect(() => store.save(patch({ settings: { tts: { rate: 1.5 } }, secrets: { dashscopeApiKey: 'sk-12345678' } }))).toThrow(SettingsError);
    expect(store.get().tts.rate).toBe(1);
    expect(store.view().secretStorageAvailable).toBe(false);
    // Without a key the same save goes through.
    store.save(patch({ settings: { tts: { rate: 1.5 } } }));
    expect(store.get().tts.rate).toBe(1.5);
  });

  it('moves a corrupt file aside and starts from defaults', () => {
    writeFileSync(join(dir, SETTINGS_FILE), '{ not json');
    const logged: string[] = [];
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox, now: () => 42, log: (m) => logged.push(m) });
    expect(store.get().connection.mode).toBe('offline');
    expect(readdirSync(dir)).toContain(`${SETTINGS_FILE}.corrupt-42`);
    expect(logged.join()).toContain('unreadable');
  });

  it('keeps the valid sections of a file with one bad section', () => {
    writeFileSync(
      join(dir, SETTINGS_FILE),
      JSON.stringify({ version: 1, settings: { vad: { silenceMs: 99999 }, tts: { enabled: false, rate: 1.2 } }, secrets: {} }),
    );
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    expect(store.get().vad.silenceMs).toBe(1000);
    expect(store.get().tts).toEqual({ enabled: false, rate: 1.2 });
  });

  it('treats a secret that no longer decrypts as not stored', () => {
    writeFileSync(join(dir, SETTINGS_FILE), JSON.stringify({ version: 1, settings: {}, secrets: { gatewayApiKey: 'garbage' } }));
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    expect(store.secret('gatewayApiKey')).toBeNull();
    expect(store.view().secrets.gatewayApiKey).toEqual({ stored: false, mask: null });
  });

  it('tells listeners after a save', () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    const seen: number[] = [];
    store.onChange((s) => seen.push(s.vad.silenceMs));
    store.save(patch({ settings: { vad: { silenceMs: 2000 } } }));
    expect(seen).toEqual([2000]);
  });

  it('previews unsaved values without writing them', () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    store.save(patch({ secrets: { gatewayApiKey: 'stored-key-0000' } }));
    const preview = store.preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: 'http://x' } } }));
    expect(preview.settings.connection.gatewayUrl).toBe('http://x');
    expect(preview.secret('gatewayApiKey')).toBe('stored-key-0000');
    expect(store.preview(patch({ secrets: { gatewayApiKey: 'typed-key-1111' } })).secret('gatewayApiKey')).toBe('typed-key-1111');
    expect(store.get().connection.gatewayUrl).toBe('');
  });
});

describe('settings input validation', () => {
  it.each([
    [{ settings: { vad: { silenceMs: 400 } } }],
    [{ settings: { vad: { silenceMs: 4001 } } }],
    [{ settings: { hotkey: { pushToTalk: 'Space' } } }],
    [{ settings: { connection: { gatewayUrl: 'ftp://host' } } }],
    [{ settings: { connection: { mode: 'cloud' } } }],
    [{ settings: { asr: { funasrUrl: 'http://host' } } }],
    [{ secrets: { gatewayApiKey: 'short' } }],
    [{ settings: { tts: { enabled: true, evil: 1 } } }],
  ])('rejects %o', (input) => {
    expect(settingsSaveSchema.safeParse(input).success).toBe(false);
  });

  it.each(['Ctrl+Alt+Space', 'CommandOrControl+Shift+K', 'Alt+F9'])('accepts the hotkey %s', (hotkey) => {
    expect(settingsSaveSchema.safeParse({ settings: { hotkey: { pushToTalk: hotkey } } }).success).toBe(true);
  });
});

describe('voice config from settings', () => {
  const base = () => createSettingsStore({ dataDir: dir, secretBox: testBox });

  it('is offline until a usable connection is configured', () => {
    const store = base();
    store.save(patch({ settings: { connection: { mode: 'gateway' } } }));
    expect(voiceConfigFromSettings(store.get(), store.secret).understanding).toEqual({ mode: 'offline' });
    expect(voiceConfigFromSettings(store.get(), store.secret).asr).toEqual({ protocol: 'dashscope', tokens: 'none' });
  });

  it('passes the gateway, the key, the device and the VAD silence through', () => {
    const store = base();
    store.save(
      patch({
        settings: { connection: { mode: 'gateway', gatewayUrl: 'http://127.0.0.1:9' }, microphone: { deviceId: 3 }, vad: { silenceMs: 1200 } },
        secrets: { gatewayApiKey: 'gw-key-5678' },
      }),
    );
    const config = voiceConfigFromSettings(store.get(), store.secret);
    expect(config.understanding).toEqual({ mode: 'gateway', gatewayUrl: 'http://127.0.0.1:9', gatewayApiKey: 'gw-key-5678' });
    expect(config.asr).toEqual({ protocol: 'dashscope', tokens: 'gateway' });
    expect(config.input).toEqual({ deviceId: 3, silenceMs: 1200 });
  });

  it('uses on-device recognition with the active model when the user never chose and is offline', () => {
    const store = base();
    expect(store.get().asr.provider).toBeUndefined();
    expect(voiceConfigFromSettings(store.get(), store.secret, '/models/zh')).toEqual(
      expect.objectContaining({ understanding: { mode: 'offline' }, asr: { protocol: 'local', modelDir: '/models/zh' } }),
    );
    expect(voiceConfigFromSettings(store.get(), store.secret).asr).toEqual({ protocol: 'local', modelDir: null });
  });

  it('keeps an explicit choice over the default', () => {
    const store = base();
    store.save(patch({ settings: { asr: { provider: 'dashscope' } } }));
    expect(voiceConfigFromSettings(store.get(), store.secret, '/models/zh').asr).toEqual({ protocol: 'dashscope', tokens: 'none' });
    store.save(patch({ settings: { connection: { mode: 'direct' }, asr: { provider: 'local' } }, secrets: { dashscopeApiKey: 'sk-direct-1234' } }));
    expect(voiceConfigFromSettings(store.get(), store.secret, '/models/zh').asr).toEqual({ protocol: 'local', modelDir: '/models/zh' });
    // Reloaded from disk, a choice stays a choice.
    expect(createSettingsStore({ dataDir: dir, secretBox: testBox }).get().asr.provider).toBe('local');
  });

  it('reads a file from before on-device recognition: its stored dashscope was the old default', () => {
    const legacy = (mode: string, provider: string) =>
      writeFileSync(
        join(dir, SETTINGS_FILE),
        JSON.stringify({
          version: 1,
          settings: { connection: { mode, gatewayUrl: 'http://127.0.0.1:9' }, asr: { provider, funasrUrl: '' }, tts: { rate: 1.5 } },
          secrets: {},
        }),
      );
    legacy('offline', 'dashscope');
    let store = base();
    expect(store.get().tts.rate).toBe(1.5);
    expect(voiceConfigFromSettings(store.get(), store.secret, '/m').asr).toEqual({ protocol: 'local', modelDir: '/m' });
    // A cloud user is not switched.
    legacy('gateway', 'dashscope');
    store = base();
    expect(voiceConfigFromSettings(store.get(), store.secret, '/m').asr).toEqual({ protocol: 'dashscope', tokens: 'gateway' });
    // FunASR never was a default: it was chosen.
    legacy('offline', 'funasr');
    expect(base().get().asr.provider).toBe('funasr');
    // Once the new app saved the file, a stored dashscope is the user's choice.
    legacy('offline', 'dashscope');
    base().save(patch({ settings: { asr: { provider: 'dashscope' } } }));
    expect(base().get().asr.provider).toBe('dashscope');
  });

  it('uses FunASR at its URL without tokens', () => {
    const store = base();
    store.save(patch({ settings: { asr: { provider: 'funasr', funasrUrl: 'ws://127.0.0.1:10095' } } }));
    expect(voiceConfigFromSettings(store.get(), store.secret).asr).toEqual({ protocol: 'funasr', url: 'ws://127.0.0.1:10095', tokens: 'none' });
  });
});

describe('connection test', () => {
  let gateway: GatewayHarness;
  let server: Server;
  let url: string;
  const seen: { path: string; auth: string | undefined }[] = [];

  beforeEach(async () => {
    seen.length = 0;
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization });
      if (req.url === '/hang/health') return; // never answers
      res.writeHead(req.headers.authorization === 'Bearer sk-good-5678' ? 200 : 401, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // The real gateway on loopback, with its own key and a scripted model nobody calls.
    gateway = await startGatewayHarness({ script: () => ({ status: 500 }), env: { GATEWAY_API_KEY: 'good-key-1234' } });
  });
  afterEach(async () => {
    await gateway.close();
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  });

  const store = () => createSettingsStore({ dataDir: dir, secretBox: testBox });

  it('reports a real gateway that accepts the key, without calling the model', async () => {
    const preview = store().preview(
      patch({ settings: { connection: { mode: 'gateway', gatewayUrl: `${gateway.url}/` } }, secrets: { gatewayApiKey: 'good-key-1234' } }),
    );
    const result = await testConnection(preview.settings, preview.secret);
    expect(result).toMatchObject({ ok: true, message: expect.stringMatching(/^网关连接正常（\d+ ms）。$/) });
    expect(gateway.chat.calls).toEqual([]);
  });

  it('tells the user the gateway refused the key, or wants one', async () => {
    const wrong = store().preview(
      patch({ settings: { connection: { mode: 'gateway', gatewayUrl: gateway.url } }, secrets: { gatewayApiKey: 'bad-key-0000' } }),
    );
    expect(await testConnection(wrong.settings, wrong.secret)).toEqual({ ok: false, message: '网关拒绝了 API Key，请检查是否填写正确。' });
    const none = store().preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: gateway.url } } }));
    expect(await testConnection(none.settings, none.secret)).toEqual({ ok: false, message: '网关需要 API Key，请填写后再试。' });
  });

  it('says when an address answers but is not the gateway', async () => {
    const preview = store().preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: url } } }));
    expect((await testConnection(preview.settings, preview.secret)).message).toContain('不是随口记网关');
  });

  it('direct mode: the provider refuses a bad key and accepts a good one', async () => {
    const bad = store().preview(
      patch({ settings: { connection: { mode: 'direct', llmBaseUrl: url } }, secrets: { dashscopeApiKey: 'sk-bad-00000' } }),
    );
    expect(await testConnection(bad.settings, bad.secret)).toEqual({ ok: false, message: expect.stringContaining('API Key') });
    expect(seen.at(-1)).toMatchObject({ path: '/models', auth: 'Bearer sk-bad-00000' });
    const good = store().preview(
      patch({ settings: { connection: { mode: 'direct', llmBaseUrl: url } }, secrets: { dashscopeApiKey: 'sk-good-5678' } }),
    );
    expect((await testConnection(good.settings, good.secret)).ok).toBe(true);
  });

  it('gives up after the timeout on the clock', async () => {
    const clock = new FakeClock();
    const preview = store().preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: `${url}/hang` } } }));
    const pending = testConnection(preview.settings, preview.secret, { clock, timeoutMs: 5000 });
    while (seen.length === 0) await new Promise((r) => setImmediate(r));
    await clock.advance(5000);
    expect(await pending).toEqual({ ok: false, message: '网关在 5 秒内没有响应，请检查网络或地址。' });
  });

  it('explains an unreachable address and a missing URL', async () => {
    const down = store().preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: 'http://127.0.0.1:1' } } }));
    expect((await testConnection(down.settings, down.secret)).message).toBe('无法连接网关，请检查地址和网络后重试。');
    const empty = store().preview(patch({ settings: { connection: { mode: 'gateway' } } }));
    expect((await testConnection(empty.settings, empty.secret)).message).toContain('请先填写网关地址');
  });

  it('probes a FunASR server over a real WebSocket', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((ok) => wss.once('listening', () => ok()));
    const port = (wss.address() as { port: number }).port;
    try {
      const up = store().preview(patch({ settings: { asr: { provider: 'funasr', funasrUrl: `ws://127.0.0.1:${port}` } } }));
      expect(await testConnection(up.settings, up.secret)).toEqual({ ok: true, message: expect.stringContaining('FunASR 语音识别可以连接') });
      const down = store().preview(patch({ settings: { asr: { provider: 'funasr', funasrUrl: 'ws://127.0.0.1:1' } } }));
      expect(await testConnection(down.settings, down.secret)).toEqual({ ok: false, message: expect.stringContaining('无法连接 FunASR') });
    } finally {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((ok) => wss.close(() => ok()));
    }
  });
});
