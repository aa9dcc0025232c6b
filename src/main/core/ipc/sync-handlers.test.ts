// The sync commands through the real dispatch: the zod boundary refuses bad setups before
// any handler runs, SyncErrors come back as { ok: false, error: { code, message } }, and the
// folder picker is the shell's. The service syncs through a real FolderRemote on a temp
// folder (no remote override), on a FakeClock.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '@shared/clock';
import type { SyncStatus, SyncTestResult } from '@shared/ipc/sync';
import { LedgerHistory, openLedger, type Ledger } from '../ledger/index';
import type { SecretBox } from '../settings/index';
import { SyncService } from '../sync/service';
import { createDispatch, createHandlers, type Dispatch } from './handlers';
import { entry, NOW } from '../../../../test/support/ledger-fixtures';
import { PASSPHRASE, TEST_KDF } from '../../../../test/support/sync-devices';

const box: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from([...plain].reverse().join('')).toString('base64'),
  decrypt: (cipher) => [...Buffer.from(cipher, 'base64').toString()].reverse().join(''),
};

let dir: string;
let folder: string;
let ledger: Ledger;
let sync: SyncService;
let dispatch: Dispatch;
let picked: string | null;
let logged: string[];

function build(dataDir: string, book: Ledger): { sync: SyncService; dispatch: Dispatch } {
  const clock = new FakeClock();
  const service = new SyncService({
    ledger: book,
    dataDir,
    secretBox: box,
    clock,
    engine: { kdf: TEST_KDF },
    onStatus: () => {},
    onRemoteChange: () => {},
    log: (m) => logged.push(m),
  });
  const history = new LedgerHistory(book, { onChange: (reason) => reason !== 'sync' && service.localChange() });
  const handlers = createHandlers({
    ledger: book,
    history,
    appInfo: () => ({ version: 't', dataDir, databasePath: '', readOnly: false }),
    sync: service,
    pickFolder: async () => picked,
  });
  return { sync: service, dispatch: createDispatch(handlers, (m) => logged.push(m)) };
}

const cores: SyncService[] = [];
const ledgers: Ledger[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skj-synch-'));
  folder = join(dir, 'shared');
  picked = folder;
  logged = [];
  ledger = openLedger({ path: ':memory:', now: () => NOW });
  ({ sync, dispatch } = build(join(dir, 'data'), ledger));
  mkdirSync(join(dir, 'data'));
  cores.push(sync);
  ledgers.push(ledger);
});
afterEach(async () => {
  for (const s of cores.splice(0)) await s.dispose();
  for (const l of ledgers.splice(0)) l.close();
  rmSync(dir, { recursive: true, force: true });
});

const setup = (over: Record<string, unknown> = {}) => ({
  remote: { kind: 'folder', path: folder },
  passphrase: PASSPHRASE,
  deviceName: '书房电脑',
  ...over,
});
const webdav = (url: string, over: Record<string, unknown> = {}) => ({ kind: 'webdav', url, user: 'me', password: 'pw', ...over });

async function value<T>(name: string, input: unknown = {}): Promise<T> {
  const result = await dispatch(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

describe('sync commands at the boundary', () => {
  it('refuses bad setups with validation_failed before the service sees them', async () => {
    const bad: unknown[] = [
      setup({ remote: webdav('dav.example.com/suikouji') }),
      setup({ remote: webdav('ftp://dav.example.com/') }),
      setup({ remote: webdav('https://dav example.com/') }),
      setup({ remote: webdav('javascript:alert(1)') }),
      setup({ remote: webdav('https://x/', { token: 'extra' }) }),
      setup({ passphrase: 'short' }),
      setup({ passphrase: 'x'.repeat(201) }),
      setup({ deviceName: '   ' }),
      setup({ deviceName: '名'.repeat(41) }),
      setup({ remote: { kind: 'folder', path: '' } }),
      setup({ remote: { kind: 'folder', path: '   ' } }),
      setup({ remote: { kind: 'folder', path: folder, url: 'https://x/' } }),
      setup({ remote: { kind: 'ftp', path: folder } }),
      setup({ extra: true }),
      { remote: { kind: 'folder', path: folder }, deviceName: '书房电脑' },
      {},
      null,
    ];
    for (const input of bad) {
      for (const name of ['syncTest', 'syncConfigure']) {
        const result = await dispatch(name, input);
        expect(result, `${name} ${JSON.stringify(input)}`).toMatchObject({
          ok: false,
          error: { code: 'validation_failed', message: expect.stringMatching(/^输入无效（/) },
        });
      }
    }
    for (const name of ['syncStatus', 'syncNow', 'syncStop', 'syncChooseFolder']) {
      expect(await dispatch(name, { extra: 1 })).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    }
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(join(dir, 'data', 'sync.json'))).toBe(false);
    expect(sync.status().state).toBe('off');
    // The messages are the schema's Chinese ones.
    const url = await dispatch('syncConfigure', setup({ remote: webdav('ftp://x/') }));
    expect(url.ok || url.error.message).toContain('请填写以 http:// 或 https:// 开头的 WebDAV 地址');
    const short = await dispatch('syncConfigure', setup({ passphrase: 'short' }));
    expect(short.ok || short.error.message).toContain('同步密码至少8位');
    const empty = await dispatch('syncConfigure', setup({ remote: { kind: 'folder', path: ' ' } }));
    expect(empty.ok || empty.error.message).toContain('请选择同步文件夹');
  });

  it('tests, configures, syncs, reports and stops through the commands, on a real folder', async () => {
    expect(await value('syncChooseFolder')).toEqual({ path: folder });
    picked = null;
    expect(await value('syncChooseFolder')).toEqual({ path: null });

    expect(await value<SyncStatus>('syncStatus')).toMatchObject({ state: 'off', remote: null });
    expect(await value<SyncTestResult>('syncTest', setup())).toMatchObject({ reachable: true, existing: false });
    // A blank passphrase with nothing stored: the service's own Chinese sentence.
    expect(await value<SyncTestResult>('syncTest', setup({ passphrase: '' }))).toMatchObject({
      reachable: false,
      message: '请填写同步密码（至少8位）。',
    });
    expect(await dispatch('syncConfigure', setup({ passphrase: '' }))).toEqual({
      ok: false,
      error: { code: 'not_configured', message: '请填写同步密码（至少8位）。' },
    });

    ledger.addTransaction(entry({ note: '早餐' }));
    const configured = await value<SyncStatus>('syncConfigure', setup({ deviceName: '  书房电脑  ' }));
    expect(configured).toMatchObject({ state: 'idle', remote: { kind: 'folder', path: folder }, deviceName: '书房电脑', pending: 0, error: null });
    expect(readdirSync(folder).some((f) => f.endsWith('.skj'))).toBe(true);
    expect(await value<SyncStatus>('syncNow')).toMatchObject({ state: 'idle' });

    // Another device with the wrong passphrase: tested and configured, refused with the code.
    const otherLedger = openLedger({ path: ':memory:', now: () => NOW });
    ledgers.push(otherLedger);
    mkdirSync(join(dir, 'other'));
    const other = build(join(dir, 'other'), otherLedger);
    cores.push(other.sync);
    const wrong = await other.dispatch('syncTest', setup({ passphrase: 'not the passphrase' }));
    expect(wrong).toMatchObject({ ok: true, value: { reachable: false, existing: true, message: expect.stringMatching(/^同步密码不对/) } });
    expect(await other.dispatch('syncConfigure', setup({ passphrase: 'not the passphrase' }))).toEqual({
      ok: false,
      error: { code: 'wrong_passphrase', message: '同步密码不对：请输入第一台设备设置同步时用的同步密码。' },
    });
    expect(existsSync(join(dir, 'other', 'sync.json'))).toBe(false);
    expect(await other.dispatch('syncConfigure', setup({ deviceName: '笔记本' }))).toMatchObject({ ok: true, value: { state: 'idle' } });
    expect(otherLedger.list().rows.map((r) => r.description)).toEqual(['早餐']);

    const stopped = await value<SyncStatus>('syncStop');
    expect(stopped).toMatchObject({ state: 'off', remote: null });
    expect(existsSync(join(dir, 'data', 'sync.json'))).toBe(false);
    expect(await dispatch('syncNow', {})).toEqual({ ok: false, error: { code: 'not_configured', message: '还没有设置同步。' } });
    expect(ledger.count()).toBe(1);
  });

  it('passes the remote’s SyncError codes through: a missing folder’s parent, an unreachable server', async () => {
    // A folder that vanished after setup (an unplugged drive): not_found, in Chinese.
    expect(await value<SyncStatus>('syncConfigure', setup())).toMatchObject({ state: 'idle' });
    rmSync(folder, { recursive: true, force: true });
    const gone = await value<SyncStatus>('syncNow');
    expect(gone).toMatchObject({ state: 'error', error: { code: 'not_found', message: expect.stringContaining('同步文件夹不存在') } });
    expect(gone.retryAt).not.toBeNull();

    // Nothing listens on port 1: unreachable, before anything is saved.
    const url = 'http://127.0.0.1:1/dav/';
    const tested = await value<SyncTestResult>('syncTest', setup({ remote: webdav(url) }));
    expect(tested).toMatchObject({ reachable: false, existing: false });
    const result = await dispatch('syncConfigure', setup({ remote: webdav(url) }));
    expect(result).toMatchObject({ ok: false, error: { code: 'unreachable', message: expect.stringMatching(/[\u4e00-\u9fff]/) } });
    expect(sync.status().remote).toEqual({ kind: 'folder', path: folder });
    expect(logged).toEqual([]);
  });

  it('says so when the core was built without sync', async () => {
    const bare = createDispatch(createHandlers({ ledger, appInfo: () => ({ version: 't', dataDir: dir, databasePath: '', readOnly: false }) }));
    for (const name of ['syncStatus', 'syncNow', 'syncStop']) {
      expect(await bare(name, {})).toEqual({ ok: false, error: { code: 'sync_unavailable', message: '同步暂不可用，请重启应用后再试。' } });
    }
    expect(await bare('syncConfigure', setup())).toMatchObject({ ok: false, error: { code: 'sync_unavailable' } });
    expect(await bare('syncChooseFolder', {})).toEqual({ ok: true, value: { path: null } });
  });
});
