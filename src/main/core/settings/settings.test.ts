import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingsSaveSchema, type SettingsSaveInput } from '../../../shared/ipc/app-settings';
import { FakeClock } from '../clock';
import { createSettingsStore, SETTINGS_FILE, SettingsError, testConnection, unavailableSecretBox, voiceConfigFromSettings, type SecretBox } from './index';

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
      asr: { provider: 'dashscope' },
      vad: { silenceMs: 800 },
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
    expect(store.get().vad.silenceMs).toBe(800);
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
    expect(voiceConfigFromSettings(store.get(), store.secret).asr.tokens).toBe('none');
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

  it('uses FunASR at its URL without tokens', () => {
    const store = base();
    store.save(patch({ settings: { asr: { provider: 'funasr', funasrUrl: 'ws://127.0.0.1:10095' } } }));
    expect(voiceConfigFromSettings(store.get(), store.secret).asr).toEqual({ protocol: 'funasr', url: 'ws://127.0.0.1:10095', tokens: 'none' });
  });
});

describe('connection test against a real HTTP server', () => {
  let server: Server;
  let url: string;
  const seen: { path: string; key: string | undefined; auth: string | undefined }[] = [];

  beforeEach(async () => {
    seen.length = 0;
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined, auth: req.headers.authorization });
      if (req.url === '/hang') return; // never answers
      const ok = req.headers['x-api-key'] === 'good-key-1234' || req.headers.authorization === 'Bearer sk-good-5678';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  });

  it('reports a gateway that accepts the key', async () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    const preview = store.preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: `${url}/` } }, secrets: { gatewayApiKey: 'good-key-1234' } }));
    const result = await testConnection(preview.settings, preview.secret);
    expect(result.ok).toBe(true);
    expect(result.message).toContain('网关连接正常');
    expect(seen).toEqual([{ path: '/api/v1/asr/token', key: 'good-key-1234', auth: undefined }]);
  });

  it('tells the user the key was refused', async () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    const preview = store.preview(patch({ settings: { connection: { mode: 'direct', llmBaseUrl: url } }, secrets: { dashscopeApiKey: 'sk-bad-00000' } }));
    const result = await testConnection(preview.settings, preview.secret);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('API Key') });
    expect(seen[0]).toMatchObject({ path: '/models', auth: 'Bearer sk-bad-00000' });
  });

  it('gives up after the timeout on the clock', async () => {
    const clock = new FakeClock();
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    const preview = store.preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: url } } }));
    // Point the probe at a path that never answers.
    const pending = testConnection(preview.settings, preview.secret, {
      clock,
      timeoutMs: 5000,
      fetch: (_input, init) => fetch(`${url}/hang`, init),
    });
    while (seen.length === 0) await new Promise((r) => setImmediate(r));
    await clock.advance(5000);
    expect(await pending).toEqual({ ok: false, message: expect.stringContaining('5 秒内没有响应') });
  });

  it('explains an unreachable address and a missing URL', async () => {
    const store = createSettingsStore({ dataDir: dir, secretBox: testBox });
    const down = store.preview(patch({ settings: { connection: { mode: 'gateway', gatewayUrl: 'http://127.0.0.1:1' } } }));
    expect((await testConnection(down.settings, down.secret)).message).toContain('无法连接网关');
    const empty = store.preview(patch({ settings: { connection: { mode: 'gateway' } } }));
    expect((await testConnection(empty.settings, empty.secret)).message).toContain('请先填写网关地址');
  });
});
