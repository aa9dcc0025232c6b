import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WindowAction } from '@shared/ipc/app';
import { createAppCore, type AppCore } from '../app-core';
import type { SecretBox } from '../settings/index';

const box: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from([...plain].reverse().join('')).toString('base64'),
  decrypt: (cipher) => [...Buffer.from(cipher, 'base64').toString()].reverse().join(''),
};

let dir: string;
let core: AppCore;
const windowActions: WindowAction[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-apph-'));
  windowActions.length = 0;
  core = createAppCore({
    dataDir: dir,
    version: 't',
    secretBox: box,
    log: () => {},
    listMicrophones: async () => [{ id: 2, name: 'USB 麦克风', isDefault: true }],
    windowAction: (a) => windowActions.push(a),
  });
});
afterEach(async () => {
  await core.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('settings commands through the real dispatch', () => {
  it('save returns only a mask and get never returns the key', async () => {
    const saved = await core.dispatch('settingsSave', {
      settings: { connection: { mode: 'gateway', gatewayUrl: 'http://127.0.0.1:8080' } },
      secrets: { gatewayApiKey: 'gw-secret-wxyz' },
    });
    expect(saved).toMatchObject({ ok: true, value: { secrets: { gatewayApiKey: { stored: true, mask: '••••wxyz' } } } });
    const got = await core.dispatch('settingsGet', {});
    expect(JSON.stringify(got)).not.toContain('gw-secret');
    expect(got).toMatchObject({ ok: true, value: { settings: { connection: { mode: 'gateway' } }, dataDir: dir } });
  });

  it('rejects an out-of-range VAD silence with a Chinese message and keeps the old value', async () => {
    const result = await core.dispatch('settingsSave', { settings: { vad: { silenceMs: 10 } } });
    expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed', message: expect.stringMatching(/^输入无效/) } });
    expect(core.settings.get().vad.silenceMs).toBe(1000);
  });

  it('tests the offline mode without the network', async () => {
    expect(await core.dispatch('settingsTest', { settings: { connection: { mode: 'offline' } } })).toMatchObject({ ok: true, value: { ok: true } });
  });

  it('lists microphones and forwards window actions', async () => {
    expect(await core.dispatch('listMicrophones', {})).toEqual({ ok: true, value: [{ id: 2, name: 'USB 麦克风', isDefault: true }] });
    expect(await core.dispatch('windowAction', { action: 'closeQuickEntry' })).toEqual({ ok: true, value: null });
    expect(await core.dispatch('windowAction', { action: 'showMain', route: 'settings' })).toEqual({ ok: true, value: null });
    expect(await core.dispatch('windowAction', { action: 'showMain', route: 'http://evil' })).toMatchObject({ ok: false });
    expect(windowActions).toEqual([{ action: 'closeQuickEntry' }, { action: 'showMain', route: 'settings' }]);
  });
});
