import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import Database from 'better-sqlite3';
import readExcelFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSchemas } from '@shared/ipc/index';
import { API_GLOBAL, COMMAND_NAMES, EVENT_CHANNEL, INVOKE_CHANNEL } from '@shared/ipc/names';

// The BUILT app, not its sources: out/main/index.js is what `npm start` and every installer
// load, and bundling faults (an identifier the bundler also injects, a path that exists only
// in the source tree, a module missing from the package) show only there. The bundle runs in
// a child Node process with `electron` resolved to a recording stand-in
// (test/support/electron-stand-in), driven as a user would: IPC from its window, a typed
// entry saved to the ledger, a second launch, 退出 from the tray.

const root = resolve(import.meta.dirname, '..');
const standIn = join(root, 'test/support/electron-stand-in');
const builtMain = join(root, 'out/main/index.js');
const builtPreload = join(root, 'out/preload/index.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'skj-boot-'));

interface BootReport {
  exitCode: number;
  missing: string[];
  lifecycle: string[];
  windows: {
    options: Record<string, unknown> & { icon?: string; webPreferences?: Record<string, unknown> };
    loaded: { file?: string; hash?: string } | null;
    visible: boolean;
    url: string;
    hasWindowOpenHandler: boolean;
  }[];
  trays: { image: string; tooltip: string; menu: (string | null)[] | null; destroyed: boolean }[];
  images: string[];
  handlers: string[];
  shortcuts: string[];
  registeredShortcuts: string[];
  errorBoxes: { title: string; content: string }[];
  dialogs: { kind: 'save' | 'open'; modal: boolean; options: Record<string, unknown>; answer: Record<string, unknown> }[];
  notifications: { options: { title: string; body: string; icon?: string }; shown: boolean }[];
  /** Per window, the scripts run in its page (route changes). */
  scripts: string[][];
  applicationMenu: (string | null)[] | null;
  sessionHooks: Record<string, boolean>;
  switches: [string, string | null][];
  results: Record<string, { ok: boolean; value?: unknown; error?: { code: string; message: string } } | Record<string, unknown>>;
  problems: string[];
}

interface Boot {
  code: number | null;
  report: BootReport;
  stderr: string;
  dataDir: string;
}

let runs = 0;

/** Boots a built main bundle in a child Node process against the Electron stand-in. */
function boot(options: { main?: string; env?: Record<string, string | undefined>; wrap?: string[]; dataDir?: string } = {}): Promise<Boot> {
  const dir = join(scratch, `run-${++runs}`);
  mkdirSync(dir, { recursive: true });
  const dataDir = options.dataDir ?? join(dir, 'data');
  const reportPath = join(dir, 'report.json');
  const env: Record<string, string | undefined> = {
    ...process.env,
    // Headless unless a test gives a display: CI machines have none.
    DISPLAY: undefined,
    WAYLAND_DISPLAY: undefined,
    XDG_SESSION_TYPE: undefined,
    BOOT_MAIN: options.main ?? builtMain,
    BOOT_REPORT: reportPath,
    BOOT_INVOKE_CHANNEL: INVOKE_CHANNEL,
    STANDIN_APP_VERSION: '0.1.0-boot',
    SUIKOUJI_DATA_DIR: dataDir,
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const node = [process.execPath, '--import', join(standIn, 'register.mjs'), join(standIn, 'boot-driver.mjs')];
  const [command, ...args] = [...(options.wrap ?? []), ...node];
  return new Promise((done, fail) => {
    const child = spawn(command!, args, { cwd: dir, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`the built app did not quit within 60 s:\n${stderr}`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!existsSync(reportPath)) return fail(new Error(`no boot report (exit ${code}):\n${stderr}`));
      done({ code, report: JSON.parse(readFileSync(reportPath, 'utf8')) as BootReport, stderr, dataDir });
    });
  });
}

const ok = (result: unknown) => result as { ok: boolean; value: Record<string, unknown>; error?: { code: string } };

beforeAll(() => {
  // `npm test` builds once before the test projects run; alone, this file builds for itself.
  if (process.env['SUIKOUJI_BUILT'] !== '1' || !existsSync(builtMain)) {
    execFileSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: 'pipe' });
  }
}, 180_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the built main bundle boots (electron stand-in, no display)', () => {
  let run: Boot;
  beforeAll(async () => {
    run = await boot();
  }, 90_000);

  it('loads, runs its ready work and exits 0 without touching an Electron API the stand-in lacks', () => {
    expect(run.report.problems, run.stderr).toEqual([]);
    expect(run.report.missing).toEqual([]);
    expect(run.report.errorBoxes).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.report.lifecycle[0]).toBe('ready');
    expect(run.report.lifecycle.slice(-3)).toEqual(['will-quit', 'quit', 'exit 0']);
    // Chinese date and time inputs whatever the OS locale (the stand-in refuses a late switch).
    expect(run.report.switches).toContainEqual(['lang', 'zh-CN']);
  });

  it('opens one hardened main window whose preload and renderer files exist', () => {
    expect(run.report.windows).toHaveLength(1);
    const [main] = run.report.windows;
    expect(main!.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    const preload = main!.options.webPreferences!['preload'] as string;
    expect(preload).toBe(builtPreload);
    expect(existsSync(preload)).toBe(true);
    expect(main!.loaded).toEqual({ file: join(root, 'out/renderer/index.html'), hash: '/home' });
    expect(existsSync(main!.loaded!.file!)).toBe(true);
    expect(existsSync(main!.options.icon!)).toBe(true);
    expect(main!.hasWindowOpenHandler).toBe(true);
    expect(run.report.sessionHooks).toEqual({ permissionRequest: true, permissionCheck: true, beforeRequest: true });
  });

  it('puts a tray icon from a file that exists, with the quit item, and an app menu', () => {
    expect(run.report.trays).toHaveLength(1);
    expect(existsSync(run.report.trays[0]!.image)).toBe(true);
    expect(run.report.trays[0]!.menu![0]).toBe('记一笔…');
    expect(run.report.trays[0]!.menu).toContain('退出');
    expect(run.report.applicationMenu?.length).toBeGreaterThan(1);
    for (const image of run.report.images) expect(existsSync(image), image).toBe(true);
  });

  it('answers the preload channel from its own window only, and validates input at the boundary', () => {
    expect(run.report.handlers).toEqual([INVOKE_CHANNEL]);
    expect(ok(run.report.results['appInfo'])).toMatchObject({ ok: true, value: { version: '0.1.0-boot', dataDir: run.dataDir } });
    expect(ok(run.report.results['forbidden'])).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(ok(run.report.results['invalid'])).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
  });

  it('saves a typed entry through the built bundle into ledger.db, and closes the file cleanly on quit', () => {
    expect(ok(run.report.results['confirm']).ok).toBe(true);
    const list = ok(run.report.results['list']);
    expect(list.value).toMatchObject({ next: null, rows: [{ amountFen: 3500, type: 'EXPENSE', category: '餐饮', description: '午饭' }] });
    const dbPath = join(run.dataDir, 'ledger.db');
    expect(existsSync(dbPath)).toBe(true);
    // A WAL database closed by its last connection leaves no -wal file behind.
    expect(existsSync(`${dbPath}-wal`) && statSync(`${dbPath}-wal`).size > 0).toBe(false);
    // The quit waited for the core to close: will-quit was held once, then let through.
    expect(run.report.lifecycle.indexOf('will-quit prevented')).toBeGreaterThan(0);
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.prepare('SELECT amount_fen AS fen, description FROM transactions').all()).toEqual([{ fen: 3500, description: '午饭' }]);
    } finally {
      db.close();
    }
  });

  it('without a display, hold-to-talk falls back to the globalShortcut press-to-start key and 设置 says why', () => {
    expect(run.report.registeredShortcuts).toEqual(['Ctrl+Alt+Space']);
    // Unregistered on the way out.
    expect(run.report.shortcuts).toEqual([]);
    expect(ok(run.report.results['settings']).value['hotkey']).toEqual({ backend: 'toggle', accelerator: 'Ctrl+Alt+Space', reason: 'no-display' });
  });

  it('a second launch focuses the running window instead of opening another', () => {
    expect(run.report.results['afterSecondInstance']).toEqual({ windows: 1, mainVisible: true });
  });
});

describe('the built bundle in other start conditions', () => {
  it('an X display that is named but not there (DISPLAY=:93) falls back instead of aborting', async () => {
    const run = await boot({ env: { DISPLAY: ':93' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.report.registeredShortcuts).toEqual(['Ctrl+Alt+Space']);
    expect(ok(run.report.results['settings']).value['hotkey']).toMatchObject({ backend: 'toggle', reason: 'no-display' });
  }, 90_000);

  const xvfb = ['/usr/bin/xvfb-run'].find((p) => existsSync(p));
  it.skipIf(!xvfb)(
    'with a real X server (Xvfb) hold-to-talk uses the keyboard hook and quits cleanly (skipped without xvfb-run)',
    async () => {
      const run = await boot({ wrap: [xvfb!, '-a'] });
      expect(run.code, run.stderr).toBe(0);
      expect(run.report.registeredShortcuts).toEqual([]);
      expect(ok(run.report.results['settings']).value['hotkey']).toEqual({ backend: 'hold', accelerator: 'Ctrl+Alt+Space' });
    },
    90_000,
  );

  it('a second instance quits at once: no window, no handler, and it never opens the ledger', async () => {
    const run = await boot({ env: { STANDIN_SECOND_INSTANCE: '1', BOOT_DRIVE: '0' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.report.windows).toEqual([]);
    expect(run.report.handlers).toEqual([]);
    expect(run.report.lifecycle.slice(-2)).toEqual(['quit', 'exit 0']);
    expect(existsSync(join(run.dataDir, 'ledger.db'))).toBe(false);
  }, 90_000);

  it('「重启随口记」 from 设置 (after staging a backup restore) asks Electron to relaunch, then quits cleanly', async () => {
    const run = await boot({ env: { BOOT_DRIVE: 'relaunch' } });
    expect(run.code, run.stderr).toBe(0);
    expect(ok(run.report.results['relaunch'])).toMatchObject({ ok: true });
    const lifecycle = run.report.lifecycle;
    expect(lifecycle).toContain('relaunch');
    expect(lifecycle.indexOf('relaunch')).toBeLessThan(lifecycle.indexOf('quit'));
    expect(lifecycle.at(-1)).toBe('exit 0');
  }, 90_000);

  it('a crossed budget shows a native notification that opens 预算; 导出 goes through the save dialog and writes a real xlsx', async () => {
    const saveDir = join(scratch, 'documents');
    mkdirSync(saveDir, { recursive: true });
    const bill = join(scratch, '微信支付账单.csv');
    writeFileSync(bill, '交易时间,金额\n');
    const run = await boot({ env: { BOOT_DRIVE: 'budget-export', STANDIN_SAVE_DIR: saveDir, STANDIN_DOCUMENTS: saveDir, STANDIN_OPEN_FILE: bill } });
    expect(run.report.problems, run.stderr).toEqual([]);
    expect(run.report.missing).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(ok(run.report.results['add']).ok).toBe(true);

    expect(run.report.notifications).toEqual([
      { options: expect.objectContaining({ title: '预算提醒', body: '餐饮本月已用 90%，已用 90.10 元，预算 100 元' }), shown: true },
    ]);
    expect(existsSync(run.report.notifications[0]!.options.icon!)).toBe(true);
    expect(run.report.results['afterClick']).toEqual({ mainVisible: true });
    expect(run.report.scripts[0]).toContain('location.hash = "#/budgets"');

    const [save, open] = run.report.dialogs;
    expect(save).toMatchObject({ kind: 'save', modal: true, options: { filters: [{ extensions: ['xlsx'] }] } });
    const suggested = save!.options['defaultPath'] as string;
    expect(dirname(suggested)).toBe(saveDir);
    expect(basename(suggested)).toMatch(/^随口记_\d{8}_\d{6}\.xlsx$/);
    const exported = ok(run.report.results['exported']);
    expect(exported).toMatchObject({ ok: true, value: { path: save!.answer['filePath'], rows: 1 } });
    // The built bundle's worker loaded the xlsx writer: the file is a workbook a spreadsheet reader opens.
    const [detail, summary] = await readExcelFile(exported.value['path'] as string);
    expect(detail).toMatchObject({
      sheet: '明细',
      data: [expect.any(Array), [expect.any(String), '00:00:00', '支出', '餐饮', 90.1, '钱包', null, '聚餐', null, null, null, null, null]],
    });
    expect(summary!.sheet).toBe('分类汇总');

    expect(open).toMatchObject({ kind: 'open', modal: true, options: { properties: ['openFile'] } });
    expect(ok(run.report.results['imported'])).toEqual({
      ok: true,
      value: { name: '微信支付账单.csv', dataBase64: Buffer.from('交易时间,金额\n').toString('base64') },
    });
  }, 90_000);

  it('syncs through a folder: key derived, snapshot built in a worker, files sealed', async () => {
    const syncDir = join(scratch, 'sync-remote');
    const run = await boot({ env: { BOOT_DRIVE: 'sync', BOOT_SYNC_DIR: syncDir, STANDIN_KEYRING: 'gnome_libsecret' } });
    expect(run.report.problems, run.stderr).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(ok(run.report.results['syncTest'])).toMatchObject({ ok: true, value: { reachable: true, existing: false } });
    expect(ok(run.report.results['syncConfigure']), JSON.stringify(run.report.results['syncConfigure'])).toMatchObject({
      ok: true,
      value: { state: 'idle', error: null, pending: 0 },
    });
    expect(ok(run.report.results['syncNow'])).toMatchObject({ ok: true, value: { state: 'idle', error: null, pending: 0 } });
    const files = readdirSync(syncDir).sort();
    expect(files).toContain('suikouji-sync.json');
    expect(files.filter((f) => /\.s\.\d{10}\.skj$/.test(f))).toHaveLength(1);
    expect(files.filter((f) => /\.c\.\d{10}\.skj$/.test(f))).toHaveLength(1);
    for (const f of files) expect(readFileSync(join(syncDir, f)).includes(Buffer.from('打包的'))).toBe(false);
  }, 90_000);

  const sharedModel = resolve(root, '../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M');
  it.skipIf(!existsSync(sharedModel))(
    '「使用已有模型文件夹」 in the built app smoke-decodes the model in its recognizer process and makes it active (skipped when ../shared/models is absent)',
    async () => {
      const run = await boot({ env: { BOOT_DRIVE: 'model-folder', BOOT_MODEL_DIR: sharedModel } });
      expect(run.report.problems, run.stderr).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      expect(ok(run.report.results['before']).value).toMatchObject({ ready: false, folder: null });
      expect(ok(run.report.results['useFolder']), run.stderr).toMatchObject({ ok: true, value: { ready: true } });
      expect(ok(run.report.results['after']).value).toMatchObject({ ready: true, folder: { path: sharedModel, active: true } });
    },
    90_000,
  );

  it('a ledger file it cannot open is reported in an error box, exit 1, and left untouched', async () => {
    const dataDir = join(scratch, 'damaged');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'ledger.db'), 'this is not a database, but it is the user’s file');
    const run = await boot({ dataDir, env: { BOOT_DRIVE: '0' } });
    expect(run.code).toBe(1);
    expect(run.report.errorBoxes).toHaveLength(1);
    expect(run.report.errorBoxes[0]!.title).toBe('随口记无法打开账本');
    expect(readFileSync(join(dataDir, 'ledger.db'), 'utf8')).toBe('this is not a database, but it is the user’s file');
  }, 90_000);

  it('installed layout: the bundle inside app.asar finds its preload and renderer, and icons in app.asar.unpacked', async () => {
    // What electron-builder makes of electron-builder.yml: out/** and package.json in the
    // archive (a plain folder here: Node cannot read an asar), resources/** unpacked beside it.
    const installed = join(scratch, 'installed', 'resources');
    const asar = join(installed, 'app.asar');
    mkdirSync(asar, { recursive: true });
    cpSync(join(root, 'out'), join(asar, 'out'), { recursive: true });
    cpSync(join(root, 'package.json'), join(asar, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(asar, 'node_modules'), 'dir');
    cpSync(join(root, 'resources'), join(installed, 'app.asar.unpacked', 'resources'), { recursive: true });

    const run = await boot({ main: join(asar, 'out/main/index.js') });
    expect(run.code, run.stderr).toBe(0);
    expect(run.report.missing).toEqual([]);
    const [main] = run.report.windows;
    expect(main!.options.webPreferences!['preload']).toBe(join(asar, 'out/preload/index.cjs'));
    expect(main!.loaded!.file).toBe(join(asar, 'out/renderer/index.html'));
    expect(main!.options.icon).toBe(join(installed, 'app.asar.unpacked/resources/icon.png'));
    expect(run.report.trays[0]!.image).toBe(join(installed, 'app.asar.unpacked/resources/tray.png'));
    for (const image of run.report.images) expect(existsSync(image), image).toBe(true);
  }, 90_000);
});

describe('the built preload, as a sandboxed preload runs it', () => {
  function evaluatePreload() {
    const exposed = new Map<string, unknown>();
    const invoked: unknown[][] = [];
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    // A sandboxed preload can require nothing but `electron`, and only these two members.
    const electron = {
      contextBridge: { exposeInMainWorld: (name: string, api: unknown) => exposed.set(name, api) },
      ipcRenderer: {
        invoke: (...args: unknown[]) => {
          invoked.push(args);
          return Promise.resolve({ ok: true, value: null });
        },
        on: (channel: string, fn: (...args: unknown[]) => void) => {
          if (!listeners.has(channel)) listeners.set(channel, new Set());
          listeners.get(channel)!.add(fn);
        },
        removeListener: (channel: string, fn: (...args: unknown[]) => void) => listeners.get(channel)?.delete(fn),
      },
    };
    const strict = new Proxy(electron, {
      get(target, prop) {
        if (typeof prop === 'symbol' || prop in target) return Reflect.get(target, prop);
        throw new Error(`a sandboxed preload has no electron.${prop} here`);
      },
    });
    const module = { exports: {} };
    runInNewContext(readFileSync(builtPreload, 'utf8'), {
      require: (id: string) => {
        if (id !== 'electron') throw new Error(`a sandboxed preload cannot require '${id}'`);
        return strict;
      },
      module,
      exports: module.exports,
    });
    return { exposed, invoked, listeners };
  }

  it('exposes exactly one object whose methods are the command map, plus onEvent', () => {
    const { exposed } = evaluatePreload();
    expect([...exposed.keys()]).toEqual([API_GLOBAL]);
    const api = exposed.get(API_GLOBAL) as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...COMMAND_NAMES, 'onEvent'].sort());
    expect([...COMMAND_NAMES].sort()).toEqual(Object.keys(commandSchemas).sort());
    for (const name of Object.keys(api)) expect(typeof api[name]).toBe('function');
  });

  it('sends commands over the invoke channel and subscribes to the event channel', async () => {
    const { exposed, invoked, listeners } = evaluatePreload();
    const api = exposed.get(API_GLOBAL) as { appInfo(input: unknown): Promise<unknown>; onEvent(fn: (e: unknown) => void): () => void };
    await api.appInfo({});
    expect(invoked).toEqual([[INVOKE_CHANNEL, 'appInfo', {}]]);
    const seen: unknown[] = [];
    const off = api.onEvent((e) => seen.push(e));
    for (const fn of listeners.get(EVENT_CHANNEL) ?? []) fn({ sender: null }, { channel: 'ledger', event: { type: 'changed' } });
    expect(seen).toEqual([{ channel: 'ledger', event: { type: 'changed' } }]);
    off();
    expect(listeners.get(EVENT_CHANNEL)?.size).toBe(0);
  });
});
