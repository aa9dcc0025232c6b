// Boots a BUILT main bundle against the Electron stand-in, drives it as a user would (IPC
// from the main window, a second instance, quit from the tray) and writes what happened to
// the JSON file named by BOOT_REPORT when the process exits, whatever the exit path.
//   node --import ./register.mjs ./boot-driver.mjs
// Env: BOOT_MAIN (the built out/main/index.js), BOOT_REPORT, BOOT_INVOKE_CHANNEL, and the
// app's own SUIKOUJI_DATA_DIR. BOOT_DRIVE=0 only boots and waits for the app to quit itself;
// BOOT_DRIVE=relaunch asks for a restart (as 设置 does after staging a backup restore);
// BOOT_DRIVE=model-folder uses the on-device speech model in BOOT_MODEL_DIR (「使用已有模型文件夹」),
// which smoke-decodes it in the recognizer process the built bundle starts;
// BOOT_DRIVE=budget-export crosses a budget (a native notification, clicked) and exports
// through the save dialog (the stand-in's STANDIN_SAVE_DIR) and imports (STANDIN_OPEN_FILE).
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { app, record } from 'electron';

const results = {};
const problems = [];

function snapshot(exitCode) {
  return {
    exitCode,
    missing: record.missing,
    lifecycle: record.lifecycle,
    windows: record.windows.map((w) => ({
      options: w.options,
      loaded: w.loaded,
      visible: w.visible,
      destroyed: w.destroyed,
      url: w.webContents.url,
      sentChannels: [...new Set(w.webContents.sent.map(([c]) => c))],
      hasWindowOpenHandler: w.webContents.windowOpenHandler !== null,
    })),
    trays: record.trays.map((t) => ({
      image: t.image.path,
      tooltip: t.tooltip,
      menu: t.menu?.template?.map((i) => i.label ?? i.type ?? null) ?? null,
      destroyed: t.destroyed,
    })),
    images: record.images.map((i) => i.path),
    handlers: [...record.handlers.keys()],
    shortcuts: record.shortcuts.map((s) => s.accelerator),
    registeredShortcuts: record.registeredShortcuts,
    errorBoxes: record.errorBoxes,
    dialogs: record.dialogs,
    notifications: record.notifications.map((n) => ({ options: n.options, shown: n.shown })),
    scripts: record.windows.map((w) => w.webContents.scripts),
    applicationMenu: record.applicationMenu?.template?.map((i) => i.label ?? i.role ?? null) ?? null,
    sessionHooks: record.sessionHooks,
    switches: record.switches,
    results,
    problems,
  };
}

process.on('exit', (code) => writeFileSync(process.env['BOOT_REPORT'], JSON.stringify(snapshot(code), null, 2)));

async function waitFor(what, test, timeoutMs = 15_000) {
  const start = Date.now();
  while (!test()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function drive() {
  await waitFor('a visible main window', () => record.windows.some((w) => w.visible && !w.webContents.loading && w.loaded));
  const main = record.windows[0];
  const handler = record.handlers.get(process.env['BOOT_INVOKE_CHANNEL']);
  if (!handler) throw new Error(`no ipcMain handler for ${process.env['BOOT_INVOKE_CHANNEL']}`);
  const fromMain = { sender: main.webContents, senderFrame: { url: main.webContents.getURL() } };
  const call = (name, input) => handler(fromMain, name, input);
  if (process.env['BOOT_DRIVE'] === 'relaunch') {
    results.relaunch = await call('windowAction', { action: 'relaunch' });
    return;
  }
  if (process.env['BOOT_DRIVE'] === 'budget-export') {
    // Today in local time: budgets alert on the current month.
    const now = new Date();
    const pad = (n) => String(n).padStart(2, '0');
    const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    const categories = await call('listCategories', {});
    const food = categories.value.find((c) => c.name === '餐饮');
    results.budget = await call('setBudgets', { month: today.slice(0, 7), items: [{ categoryId: food.id, amountYuan: 100 }] });
    results.add = await call('addTransaction', { amountYuan: 90.1, type: 'EXPENSE', category: '餐饮', date: today, time: '00:00', note: '聚餐' });
    main.proxy.hide();
    record.notifications[0]?.emit('click', {});
    results.afterClick = { mainVisible: main.visible };
    results.exported = await call('exportFile', { format: 'xlsx' });
    results.imported = await call('openImportFile', {});
    app.quit();
    return;
  }
  if (process.env['BOOT_DRIVE'] === 'sync') {
    // Sync through the built bundle: the key derivation, the journal, the snapshot built in a
    // worker thread (which must find better-sqlite3 outside the bundle) and sealed files.
    await call('addTransaction', { amountYuan: 18.5, type: 'EXPENSE', category: '餐饮', date: '2026-11-20', time: '12:00', note: '打包的午饭' });
    const setup = { remote: { kind: 'folder', path: process.env['BOOT_SYNC_DIR'] }, passphrase: 'boot-sync-passphrase', deviceName: '启动测试' };
    results.syncTest = await call('syncTest', setup);
    results.syncConfigure = await call('syncConfigure', setup);
    await call('addTransaction', { amountYuan: 7, type: 'EXPENSE', category: '交通', date: '2026-11-20', time: '13:00', note: '打包的车费' });
    results.syncNow = await call('syncNow', {});
    app.quit();
    return;
  }
  if (process.env['BOOT_DRIVE'] === 'model-folder') {
    results.before = await call('modelList', {});
    results.useFolder = await call('modelUseFolder', { path: process.env['BOOT_MODEL_DIR'] });
    results.after = await call('modelList', {});
    app.quit();
    return;
  }

  results.appInfo = await call('appInfo', {});
  results.forbidden = await handler({ sender: {}, senderFrame: { url: 'https://evil.example/' } }, 'appInfo', {});
  results.invalid = await call('listTransactions', { limit: -1 });
  results.settings = await call('settingsGet', {});
  // A real write through the built bundle: typed entry → draft → confirm → one ledger row.
  results.mode = await call('voiceSetMode', { mode: 'keyboard' });
  results.text = await call('voiceText', { text: '午饭35块' });
  results.confirm = await call('voiceAction', { action: 'confirmAll' });
  results.list = await call('listTransactions', {});

  // A second launch focuses the first instead of opening another window.
  main.proxy.hide();
  app.emit('second-instance', { preventDefault() {} }, ['suikouji'], process.cwd());
  results.afterSecondInstance = { windows: record.windows.filter((w) => !w.destroyed).length, mainVisible: main.visible };

  // 退出 from the tray menu, as a user quits.
  const quitItem = record.trays[0]?.menu?.template?.find((i) => i.label === '退出');
  if (quitItem) quitItem.click();
  else app.quit();
}

try {
  await import(pathToFileURL(process.env['BOOT_MAIN']).href);
  if (process.env['BOOT_DRIVE'] !== '0') await drive();
} catch (err) {
  problems.push(String(err?.stack ?? err));
  process.exit(3);
}
// Nothing else ends the process: a quit that never completes is caught by the test's timeout.
