import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppEvent } from '@shared/events';
import { CodedError } from '@shared/errors';
import { Listeners } from '@shared/listeners';
import type { ModelEvent, ModelInfo, ModelListing } from '@shared/ipc/models';
import { toZonedNow } from '@shared/time';
import { openLedger, type Ledger } from '../ledger/index';
import type { ModelErrorCode, ModelManager } from '../models/index';
import type { LocalAsrEngine } from '../asr/local/index';
import { createAppCore } from '../app-core';
import { createDispatch, createHandlers, type Dispatch } from './handlers';
import { ScriptedAsr, ScriptedVoiceInput } from '../../../../test/support/voice-doubles';

class FakeModelError extends CodedError<ModelErrorCode> {}

/** A manager with one catalog model; `failNext` makes the next call fail the way the real one does. */
class FakeModelManager implements ModelManager {
  readonly calls: string[] = [];
  failNext: Error | null = null;
  private readonly events = new Listeners<{ event: (event: ModelEvent) => void }>();
  private model: ModelInfo = {
    id: 'zh-small',
    name: '中文流式（小）',
    description: '日常记账',
    downloadBytes: 25_000_000,
    state: 'absent',
    diskBytes: null,
    active: false,
    progress: null,
    error: null,
    recommended: true,
  };
  private folder: ModelListing['folder'] = null;

  list(): ModelListing {
    return { models: [{ ...this.model }], folder: this.folder, dir: '/data/models', ready: this.model.active || !!this.folder?.active };
  }
  activeModelDir(): string | null {
    return this.folder?.active ? this.folder.path : this.model.active ? '/data/models/zh-small' : null;
  }
  private step(name: string, arg: string, isId = true): void {
    this.calls.push(`${name} ${arg}`);
    const failure = this.failNext;
    this.failNext = null;
    if (failure) throw failure;
    if (isId && arg !== this.model.id) throw new FakeModelError('unknown_model', '没有这个模型');
  }
  async download(id: string): Promise<ModelListing> {
    this.step('download', id);
    this.model = { ...this.model, state: 'ready', diskBytes: 30_000_000, active: true };
    this.events.emit('event', { type: 'changed' });
    return this.list();
  }
  cancel(id: string): ModelListing {
    this.step('cancel', id);
    return this.list();
  }
  setSource(source: string): ModelListing {
    this.step('setSource', source, false);
    return { ...this.list(), source: source as ModelListing['source'] };
  }
  async remove(id: string): Promise<ModelListing> {
    this.step('remove', id);
    this.model = { ...this.model, state: 'absent', diskBytes: null, active: false };
    this.events.emit('event', { type: 'changed' });
    return this.list();
  }
  activate(id: string): ModelListing {
    this.step('activate', id);
    return this.list();
  }
  async useFolder(path: string): Promise<ModelListing> {
    this.step('useFolder', path, false);
    this.folder = { path, diskBytes: 1000, active: true };
    return this.list();
  }
  onEvent(listener: (event: ModelEvent) => void) {
    return this.events.on('event', listener);
  }
  disposed = false;
  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

let ledger: Ledger;
let models: FakeModelManager;
let picks: (string | null)[];
let logged: string[];
let dispatch: Dispatch;

const build = (extra: { withModels?: boolean; withPicker?: boolean } = {}) =>
  createDispatch(
    createHandlers({
      ledger,
      appInfo: () => ({ version: 't', dataDir: '/tmp/x', databasePath: ':memory:', readOnly: false }),
      ...(extra.withModels === false ? {} : { models }),
      ...(extra.withPicker === false ? {} : { pickFolder: async () => picks.shift() ?? null }),
    }),
    (message) => logged.push(message),
  );

beforeEach(() => {
  ledger = openLedger({ path: ':memory:', now: () => toZonedNow('2026-02-17T12:00:00+08:00') });
  models = new FakeModelManager();
  picks = [];
  logged = [];
  dispatch = build();
});
afterEach(() => ledger.close());

describe('model commands', () => {
  it('lists, downloads and deletes through the manager', async () => {
    expect(await dispatch('modelList', {})).toMatchObject({ ok: true, value: { ready: false, models: [{ id: 'zh-small', state: 'absent' }] } });
    expect(await dispatch('modelDownload', { id: 'zh-small' })).toMatchObject({
      ok: true,
      value: { ready: true, models: [{ state: 'ready', active: true }] },
    });
    expect(await dispatch('modelDelete', { id: 'zh-small' })).toMatchObject({ ok: true, value: { ready: false } });
    expect(models.calls).toEqual(['download zh-small', 'remove zh-small']);
  });

  it.each([
    ['modelDownload', { id: '../etc' }],
    ['modelDownload', { id: 'a/b' }],
    ['modelDownload', { id: '' }],
    ['modelDownload', { id: 'x'.repeat(121) }],
    ['modelDelete', { id: '.hidden' }],
    ['modelActivate', {}],
    ['modelCancel', { id: 'zh-small', extra: 1 }],
    ['modelUseFolder', { path: 'relative/models' }],
    ['modelUseFolder', { path: '' }],
    ['modelUseFolder', { path: '/models/a\0b' }],
    ['modelUseFolder', { path: 42 }],
    ['modelSetSource', { source: 'evil.example' }],
    ['modelSetSource', {}],
    ['modelDownload', { id: 'zh-small', acceptUnverified: 'yes' }],
  ])('refuses %s %o before the manager sees it', async (name, input) => {
    const result = await dispatch(name, input);
    expect(result).toMatchObject({ ok: false, error: { code: 'validation_failed', message: expect.stringMatching(/^输入无效/) } });
    expect(models.calls).toEqual([]);
  });

  it.each(['/home/u/models/zh', 'C:\\Users\\u\\models', 'D:/models', '\\\\nas\\models'])('accepts the absolute folder %s', async (path) => {
    expect(await dispatch('modelUseFolder', { path })).toMatchObject({ ok: true, value: { folder: { path, active: true } } });
  });

  it('sets the source and passes the unverified consent on', async () => {
    expect(await dispatch('modelSetSource', { source: 'hf-mirror' })).toMatchObject({ ok: true, value: { source: 'hf-mirror' } });
    models.failNext = new FakeModelError('unverified', '这个下载源没有公开的校验值，无法确认下载内容；确认后才会使用');
    expect(await dispatch('modelDownload', { id: 'zh-small' })).toEqual({
      ok: false,
      error: { code: 'unverified', message: '这个下载源没有公开的校验值，无法确认下载内容；确认后才会使用' },
    });
    models.failNext = new FakeModelError('unsafe_archive', '模型压缩包含有不安全的内容（链接：model/x），已拒绝安装');
    expect(await dispatch('modelDownload', { id: 'zh-small', acceptUnverified: true })).toMatchObject({
      ok: false,
      error: { code: 'unsafe_archive' },
    });
    expect(models.calls).toEqual(['setSource hf-mirror', 'download zh-small', 'download zh-small']);
  });

  it('passes the manager’s coded failures on as {code, message}', async () => {
    models.failNext = new FakeModelError('not_found', '服务器上没有这个模型文件（404），请稍后再试或换一个模型。');
    expect(await dispatch('modelDownload', { id: 'zh-small' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: '服务器上没有这个模型文件（404），请稍后再试或换一个模型。' },
    });
    models.failNext = new FakeModelError('incomplete', '这个文件夹里没有 tokens.txt，不是完整的语音模型。');
    expect(await dispatch('modelUseFolder', { path: '/home/u/half' })).toMatchObject({ ok: false, error: { code: 'incomplete' } });
    expect(await dispatch('modelActivate', { id: 'other' })).toMatchObject({ ok: false, error: { code: 'unknown_model' } });
    expect(logged).toEqual([]);
  });

  it('hides an unexpected failure behind internal_error and logs it', async () => {
    models.failNext = new TypeError('boom at /secret/path');
    const result = await dispatch('modelDownload', { id: 'zh-small' });
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    expect(JSON.stringify(result)).not.toContain('/secret/path');
    expect(logged).toEqual(['command modelDownload failed']);
  });

  it('asks the shell for a folder when none is given, and says when the user closed the dialog', async () => {
    picks.push('/home/u/sherpa-model', null);
    expect(await dispatch('modelUseFolder', {})).toMatchObject({ ok: true, value: { folder: { path: '/home/u/sherpa-model' } } });
    const closed = await dispatch('modelUseFolder', {});
    expect(closed).toMatchObject({ ok: true, value: { cancelled: true } });
    expect(models.calls).toEqual(['useFolder /home/u/sherpa-model']);
  });

  it('says so when there is no folder dialog or no manager', async () => {
    expect(await build({ withPicker: false })('modelUseFolder', {})).toMatchObject({ ok: false, error: { code: 'folder_dialog_unavailable' } });
    expect(await build({ withModels: false })('modelList', {})).toMatchObject({
      ok: false,
      error: { code: 'models_unavailable', message: expect.stringContaining('本地语音识别') },
    });
  });
});

describe('models in the app core', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skj-models-core-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('forwards the manager’s events, keeps one engine for the active model and lets it go when the model goes', async () => {
    const manager = new FakeModelManager();
    const engines: { dir: string; disposed: boolean; clients: number }[] = [];
    const clients: ScriptedAsr[] = [];
    const mic = new ScriptedVoiceInput();
    const core = createAppCore({
      dataDir: dir,
      version: 't',
      log: () => {},
      backups: false,
      models: { manager },
      createLocalAsrEngine: (modelDir): LocalAsrEngine => {
        const record = { dir: modelDir, disposed: false, clients: 0 };
        engines.push(record);
        return {
          modelDir,
          ready: async () => {},
          createClient: () => {
            record.clients += 1;
            const client = new ScriptedAsr(() => false);
            clients.push(client);
            return client;
          },
          dispose: async () => {
            record.disposed = true;
          },
        };
      },
      voice: { tts: { engine: 'log', log: () => {} }, createVoiceInput: () => mic },
    });
    const events: AppEvent[] = [];
    core.onEvent((event) => events.push(event));
    try {
      await core.dispatch('voiceStart', { mode: 'auto' });
      expect(events).toContainEqual({
        channel: 'voice',
        event: { type: 'error', code: 'asr_model_missing', message: '本地语音识别需要先下载语音模型' },
      });

      expect(await core.dispatch('modelDownload', { id: 'zh-small' })).toMatchObject({ ok: true });
      expect(events).toContainEqual({ channel: 'models', event: { type: 'changed' } });
      // The session that asked for the model listens now, with an engine made on first speech.
      expect(engines).toEqual([]);
      expect(await core.dispatch('voiceStart', { mode: 'auto' })).toMatchObject({ ok: true, value: { mode: 'auto' } });
      mic.speechStart();
      mic.speechEnd();
      await new Promise((r) => setTimeout(r, 0));
      expect(engines).toEqual([{ dir: '/data/models/zh-small', disposed: false, clients: 1 }]);
      clients[0]!.final('');

      await core.dispatch('modelDelete', { id: 'zh-small' });
      expect(engines[0]!.disposed).toBe(true);

      await core.dispatch('modelDownload', { id: 'zh-small' });
      // Speech is ignored while the session's 「没听清」 is still being read out.
      await vi.waitFor(() => {
        mic.speechStart();
        expect(engines.map((e) => e.disposed)).toEqual([true, false]);
      });
    } finally {
      await core.dispose();
    }
    expect(manager.disposed).toBe(true);
    expect(engines.map((e) => e.disposed)).toEqual([true, true]);
  });
});
