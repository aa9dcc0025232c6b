import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { openLedger, type Ledger } from '@core/ledger/index';
import { SyncEngine } from '@core/sync/engine';
import { defaultDeviceName } from '@core/sync/device-name';
import { FolderRemote } from '@core/sync/folder-remote';
import type { Remote } from '@core/sync/remote';
import { WebDavRemote } from '@core/sync/webdav-remote';
import { freePort } from '../test/support/child-daemons';
import { startFaultProxy, type FaultProxy } from '../test/support/fault-proxy';
import { apacheAvailable, startWebDav, type WebDavServer } from '../test/support/webdav-server';
import { expect, hanziRenderAsGlyphs, overflowingElements, screenshots, test, ledgerRows } from './fixtures';

// 设置 → 同步 end to end: the real section in Chromium, the real SyncService and engine in the
// app core, a real folder remote on a temp dir. The "other device" is a second ledger in this
// process with its own engine on the same folder, as a second computer behind Syncthing would be.

const PASSPHRASE = 'e2e-同步密码-Q7v4kX';
const WRONG_PASSPHRASE = 'not-the-passphrase-9';
/** scrypt cheap enough for a test; the app's default costs a second or more per unlock. */
const KDF = { name: 'scrypt', N: 1024, r: 8, p: 1 } as const;

/** Today's calendar day where the app runs (the config pins Asia/Shanghai). */
const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' });

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files under `dir` whose bytes contain `secret` as UTF-8 (or UTF-16, as SQLite may store text). */
function filesContaining(dir: string, secret: string): string[] {
  const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le')];
  return filesUnder(dir).filter((path) => {
    const bytes = readFileSync(path);
    return needles.some((needle) => bytes.includes(needle));
  });
}

/** The page's markup and every input's current value: where a typed secret could linger. */
async function pageText(page: Page): Promise<string> {
  const values = await page.evaluate(() => Array.from(document.querySelectorAll('input')).map((input) => input.value));
  return `${await page.content()}\n${values.join('\n')}`;
}

/** The second computer: its own ledger file and engine on the same synced folder (or WebDAV folder). */
class OtherDevice {
  readonly ledger: Ledger;
  readonly engine: SyncEngine;

  constructor(
    readonly dir: string,
    remote: string | ((device: string) => Remote),
  ) {
    this.ledger = openLedger({ path: join(dir, 'ledger.db') });
    this.ledger.journal.setCapture(true);
    const device = this.ledger.journal.deviceId;
    this.engine = new SyncEngine({
      db: this.ledger.database,
      journal: this.ledger.journal,
      dbPath: this.ledger.path,
      remote: typeof remote === 'string' ? new FolderRemote(remote, device) : remote(device),
      passphrase: PASSPHRASE,
      deviceName: '卧室电脑',
      kdf: KDF,
    });
  }

  close(): void {
    this.ledger.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

test.describe('设置 → 同步 with a synced folder', () => {
  // A long interval: the rounds in this test are the ones it asks for (setup, 立即同步) and
  // the short debounce after a local write.
  test.use({ appOptions: { connection: 'offline', sync: { engine: { kdf: KDF }, debounceMs: 200, intervalMs: 10 * 60_000 } } });

  test('set up through the section; a row from another device appears in the open windows; the passphrase never leaks', async ({ app }) => {
    const remoteDir = mkdtempSync(join(tmpdir(), 'skj-e2e-sync-remote-'));
    let other: OtherDevice | null = null;
    try {
      // ---- 1. Set up: 本地文件夹, 选择…, the passphrase twice (a new remote), 测试连接, 开始同步.
      app.dialogs.folder = remoteDir;
      const page = await app.open('#/settings');
      const section = page.getByRole('region', { name: '同步' });
      await expect(section.getByRole('heading', { name: '同步' })).toBeVisible();
      await section.getByRole('radio', { name: '本地文件夹' }).check();
      await section.getByRole('button', { name: '选择…' }).click();
      await expect(section.getByLabel('同步文件夹')).toHaveValue(remoteDir);
      await section.getByLabel('同步密码', { exact: true }).fill(PASSPHRASE);
      // The name is asked at the end, as 开始同步's confirm step.
      await expect(section.getByLabel('本机名称')).toHaveCount(0);

      const testResult = section.getByRole('status', { name: '连接测试结果' });
      await section.getByRole('button', { name: '测试连接' }).click();
      await expect(testResult).toContainText('连接成功：这是一个新的同步位置');
      await expect(testResult).toHaveClass(/good/);
      // The test saved nothing and wrote nothing into the folder.
      expect(app.core.sync.status().state).toBe('off');
      expect(readdirSync(remoteDir)).toEqual([]);

      // A new remote asks for the passphrase again before anything is uploaded.
      await section.getByRole('button', { name: '开始同步' }).click();
      await expect(section.getByRole('alert')).toContainText('请再输入一次同步密码');
      const repeat = section.getByLabel('再次输入同步密码');
      await expect(repeat).toBeFocused();
      await repeat.fill(PASSPHRASE);
      await section.getByRole('button', { name: '开始同步' }).click();

      // Before the first round: the name every other computer will list this one by, from the OS user.
      const naming = section.getByRole('group', { name: '确认本机名称' });
      const name = naming.getByLabel('本机名称');
      await expect(name).toHaveValue(defaultDeviceName());
      await expect(name).toBeFocused();
      expect(readdirSync(remoteDir)).toEqual([]);
      await name.fill('书房电脑');
      await naming.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-confirm-name');
      await naming.getByRole('button', { name: '用这个名字开始同步' }).click();

      const line = section.getByRole('status', { name: '同步状态' });
      await expect(line).toContainText('上次同步：今天');
      await expect(section.getByText(`本地文件夹 ${remoteDir}`)).toBeVisible();
      await expect(section.getByTestId('sync-device-name')).toHaveText('书房电脑');
      const devices = section.getByRole('list', { name: '同步的设备' }).getByRole('listitem');
      await expect(devices).toHaveCount(1);
      await expect(devices.first()).toContainText('书房电脑');
      await expect(devices.first()).toContainText('本机');
      await expect(section.getByRole('alert')).toHaveCount(0);
      expect(app.core.sync.status()).toMatchObject({ state: 'idle', remote: { kind: 'folder', path: remoteDir }, deviceName: '书房电脑' });
      // The folder holds the sealed books now.
      expect(readdirSync(remoteDir).length).toBeGreaterThan(0);

      expect(await hanziRenderAsGlyphs(page)).toBe(true);
      expect(await overflowingElements(page, 'section[aria-label="同步"]', 'x')).toEqual([]);
      expect(await overflowingElements(page, 'section[aria-label="同步"] li', 'x')).toEqual([]);
      await section.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-settings');
      await assertNoSecret(page, app.dataDir, remoteDir);

      // ---- 2. Another device joins, writes a row and syncs; 立即同步 here brings it in.
      // A window already showing 明细 (opened before the row exists) must refresh by itself.
      const ledgerWindow = await app.open('#/ledger');
      const shown = ledgerRows(ledgerWindow);
      await expect(ledgerWindow.getByRole('heading', { name: '明细' })).toBeVisible();
      await expect(shown.filter({ hasText: '楼下早餐' })).toHaveCount(0);

      other = new OtherDevice(mkdtempSync(join(tmpdir(), 'skj-e2e-sync-other-')), remoteDir);
      await other.engine.round();
      other.ledger.addTransaction({ amountFen: 1250, type: 'EXPENSE', category: '餐饮', date: today(), time: '08:10', note: '楼下早餐' });
      const pushed = await other.engine.round();
      expect(pushed.pushed).toBeGreaterThan(0);

      await section.getByRole('button', { name: '立即同步' }).click();
      await expect(section.getByRole('button', { name: '立即同步' })).toBeEnabled();
      await expect(devices).toHaveCount(2);
      await expect(devices.first()).toContainText('本机');
      await expect(devices.filter({ hasText: '卧室电脑' })).toHaveCount(1);
      await expect(devices.filter({ hasText: '卧室电脑' })).toContainText('最近同步：今天');
      await expect(line).toContainText('上次同步：今天');
      await expect(section.getByRole('alert')).toHaveCount(0);
      expect(app.core.ledger.list().rows.map((row) => row.description)).toContain('楼下早餐');

      // The open 明细 window refreshed on the ledger's 'sync' change, without a reload.
      const arrived = shown.filter({ hasText: '楼下早餐' });
      await expect(arrived).toHaveCount(1);
      await expect(arrived).toContainText('12.5');
      await expect(arrived).toContainText('餐饮');

      // The other computer's books fingerprint, published with its change, equals this one's now.
      await expect(devices.filter({ hasText: '卧室电脑' })).toContainText('账目一致');
      await section.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-settings-two-devices');

      // ---- 3. The sync tool is still copying the other computer's next file in: waited for, no error.
      other.ledger.addTransaction({ amountFen: 3000, type: 'EXPENSE', category: '交通', date: today(), time: '09:00', note: '打车上班' });
      await other.engine.round();
      const newest = readdirSync(remoteDir)
        .filter((f) => f.startsWith(`${other!.ledger.journal.deviceId}.c.`))
        .sort()
        .at(-1)!;
      const whole = readFileSync(join(remoteDir, newest));
      writeFileSync(join(remoteDir, newest), whole.subarray(0, Math.floor(whole.length / 2)));
      await section.getByRole('button', { name: '立即同步' }).click();
      await expect(section.getByRole('button', { name: '立即同步' })).toBeEnabled();
      await expect(section.getByText(/等待同步工具传完 卧室电脑 的文件/)).toBeVisible();
      await expect(section.getByRole('alert')).toHaveCount(0);
      await section.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-settings-waiting');
      writeFileSync(join(remoteDir, newest), whole);
      await section.getByRole('button', { name: '立即同步' }).click();
      await expect(section.getByText(/等待同步工具传完/)).toHaveCount(0);
      await expect(devices.filter({ hasText: '卧室电脑' })).toContainText('账目一致');
      expect(app.core.ledger.list().rows.map((row) => row.description)).toContain('打车上班');

      // The settings window goes to 明细 through the menu (no reload) and finds it too.
      await page.getByRole('link', { name: '明细' }).click();
      const rows = ledgerRows(page);
      await expect(rows.filter({ hasText: '楼下早餐' })).toHaveCount(1);
      expect(await overflowingElements(page, '[role="grid"] [role="row"][aria-selected]', 'x')).toEqual([]);
      await screenshots(page, 'sync-ledger-arrived');
      await assertNoSecret(page, app.dataDir, remoteDir);
    } finally {
      other?.close();
      rmSync(remoteDir, { recursive: true, force: true });
    }
  });

  test('停止同步, then a wrong passphrase against the same folder is refused and nothing is saved', async ({ app }) => {
    const remoteDir = mkdtempSync(join(tmpdir(), 'skj-e2e-sync-remote-'));
    try {
      // Set up already (the section's setup is the test above), with a row of this computer's own.
      app.ledger.addTransaction({ amountFen: 800, type: 'EXPENSE', category: '交通', date: today(), time: '09:00', note: '地铁' });
      await app.core.sync.configure({ remote: { kind: 'folder', path: remoteDir }, passphrase: PASSPHRASE, deviceName: '书房电脑' });
      expect(app.core.sync.status()).toMatchObject({ state: 'idle', pending: 0 });
      app.dialogs.folder = remoteDir;
      const page = await app.open('#/settings');
      const section = page.getByRole('region', { name: '同步' });
      const testResult = section.getByRole('status', { name: '连接测试结果' });
      await expect(section.getByRole('status', { name: '同步状态' })).toContainText('上次同步：今天');

      await section.getByRole('button', { name: '停止同步…' }).click();
      const confirm = page.getByRole('alertdialog', { name: '停止在这台电脑上同步？' });
      await expect(confirm.getByRole('button', { name: '取消' })).toBeFocused();
      await confirm.getByRole('button', { name: '停止同步' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(section.getByRole('status').filter({ hasText: '已停止在这台电脑上同步' })).toBeVisible();
      expect(app.core.sync.status().state).toBe('off');
      expect(existsSync(join(app.dataDir, 'sync.json'))).toBe(false);
      // The books stay.
      expect(app.core.ledger.list().rows.map((row) => row.description)).toContain('地铁');
      const filesBefore = readdirSync(remoteDir).sort();

      await section.getByRole('radio', { name: '本地文件夹' }).check();
      await section.getByRole('button', { name: '选择…' }).click();
      await expect(section.getByLabel('同步文件夹')).toHaveValue(remoteDir);
      await section.getByLabel('同步密码', { exact: true }).fill(WRONG_PASSPHRASE);
      await section.getByRole('button', { name: '测试连接' }).click();
      await expect(testResult).toContainText('同步密码不对');
      // An error, shown as one: not in the success colour.
      await expect(testResult).toHaveClass(/bad/);
      // An existing remote: no second passphrase field.
      await expect(section.getByLabel('再次输入同步密码')).toHaveCount(0);

      // 开始同步 with it refuses too, and saves nothing.
      await section.getByRole('button', { name: '开始同步' }).click();
      // (The refusal shows as the test's result or as the form's alert, whichever ran last.)
      await expect(section.getByText(/同步密码不对/).first()).toBeVisible();
      await expect(section.getByText(/同步密码不对/).first()).toHaveClass(/bad/);
      await expect(section.getByRole('status', { name: '同步状态' })).toHaveCount(0);
      expect(app.core.sync.status().state).toBe('off');
      expect(existsSync(join(app.dataDir, 'sync.json'))).toBe(false);
      expect(readdirSync(remoteDir).sort()).toEqual(filesBefore);
      // The form keeps what was typed.
      await expect(section.getByLabel('同步密码', { exact: true })).toHaveValue(WRONG_PASSPHRASE);
      expect(await overflowingElements(page, 'section[aria-label="同步"]', 'x')).toEqual([]);
      await section
        .getByText(/同步密码不对/)
        .first()
        .scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-wrong-passphrase');

      // The right passphrase joins again: the test says the local rows are merged, once.
      await section.getByLabel('同步密码', { exact: true }).fill(PASSPHRASE);
      await section.getByRole('button', { name: '测试连接' }).click();
      await expect(testResult).toContainText('连接成功：这里已有同步的账本，同步密码正确。');
      await expect(testResult).toHaveClass(/good/);
      expect(await mentions(testResult, '合并')).toBe(1);
      await section.getByRole('button', { name: '开始同步' }).click();
      // Joining again keeps the name it had (sync.json is gone, so: the OS user's default).
      const naming = section.getByRole('group', { name: '确认本机名称' });
      await expect(naming.getByLabel('本机名称')).toHaveValue(defaultDeviceName());
      await naming.getByRole('button', { name: '用这个名字开始同步' }).click();
      await expect(section.getByRole('status', { name: '同步状态' })).toContainText('上次同步：今天');
      expect(app.core.ledger.list().rows.filter((row) => row.description === '地铁')).toHaveLength(1);

      await assertNoSecret(page, app.dataDir, remoteDir);
      expect(await pageText(page)).not.toContain(WRONG_PASSPHRASE);
    } finally {
      rmSync(remoteDir, { recursive: true, force: true });
    }
  });
});

test.describe('设置 → 同步 over WebDAV (skipped when apache2 is not installed)', () => {
  // A real WebDAV server (Apache + mod_dav_fs) on loopback, the app's own WebDavRemote to it.
  test.skip(!apacheAvailable(), 'needs apache2 with mod_dav and htpasswd (skipped: not installed)');
  test.use({ appOptions: { connection: 'offline', sync: { engine: { kdf: KDF }, debounceMs: 200, intervalMs: 10 * 60_000 } } });
  test.describe.configure({ timeout: 90_000 });

  test('a wrong app password and an unreachable server said plainly; joining shows its download progress, then the devices', async ({ app }) => {
    let server: WebDavServer | null = null;
    let proxy: FaultProxy | null = null;
    let other: OtherDevice | null = null;
    try {
      server = await startWebDav({ folder: 'suikouji', user: 'wang', password: 'dav-app-pw-Zk83Lq' });
      const folderUrl = `${server.url}suikouji/`;
      // The family's other computer has been syncing for a while: a few rounds, a change file each.
      const { user, password } = server;
      other = new OtherDevice(
        mkdtempSync(join(tmpdir(), 'skj-e2e-sync-other-')),
        (device) => new WebDavRemote({ url: folderUrl, user, password, device }),
      );
      const notes = ['早餐', '地铁', '午饭', '咖啡', '超市', '晚饭'];
      for (const [i, note] of notes.entries()) {
        other.ledger.addTransaction({ amountFen: 1000 + i * 100, type: 'EXPENSE', category: '餐饮', date: today(), time: `0${i}:30`, note });
        await other.engine.round();
      }
      // This computer reaches the server through a proxy that can slow the downloads down.
      proxy = await startFaultProxy(server.origin);
      const viaProxy = `${proxy.url}suikouji/`;

      const page = await app.open('#/settings');
      const section = page.getByRole('region', { name: '同步' });
      const testResult = section.getByRole('status', { name: '连接测试结果' });
      await expect(section.getByRole('radio', { name: 'WebDAV 服务器' })).toBeChecked();
      await section.getByLabel('服务器地址').fill(viaProxy);
      await section.getByLabel('用户名').fill(server.user);
      await section.getByLabel('同步密码', { exact: true }).fill(PASSPHRASE);

      // ---- A wrong app password: refused in words, nothing saved.
      await section.getByLabel('应用密码').fill('not-the-app-password');
      await section.getByRole('button', { name: '测试连接' }).click();
      await expect(testResult).toContainText('同步服务器拒绝了登录（401）');
      await expect(testResult).toContainText('应用密码');
      await expect(testResult).toHaveClass(/bad/);
      expect(app.core.sync.status().state).toBe('off');
      expect(await overflowingElements(page, 'section[aria-label="同步"]', 'x')).toEqual([]);
      await testResult.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-webdav-wrong-password');

      // ---- A server that does not answer (nothing listens on that port).
      const closed = await freePort();
      await section.getByLabel('服务器地址').fill(`http://127.0.0.1:${closed}/suikouji/`);
      await section.getByLabel('应用密码').fill(server.password);
      await section.getByRole('button', { name: '测试连接' }).click();
      await expect(testResult).toContainText('连不上同步服务器');
      await expect(testResult).toContainText('请检查网络和地址');
      // A test saves nothing, so it promises no retry.
      await expect(testResult).not.toContainText('自动重试');
      await expect(testResult).toHaveClass(/bad/);
      // 开始同步 refuses it too, and the form keeps what was typed.
      await section.getByRole('button', { name: '开始同步' }).click();
      await expect(section.getByText(/连不上同步服务器/).first()).toBeVisible();
      await expect(section.getByRole('group', { name: '确认本机名称' })).toHaveCount(0);
      expect(app.core.sync.status().state).toBe('off');
      await expect(section.getByLabel('服务器地址')).toHaveValue(`http://127.0.0.1:${closed}/suikouji/`);
      await testResult.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-webdav-unreachable');

      // ---- The right address: books are there, the passphrase is checked, no repeat asked.
      await section.getByLabel('服务器地址').fill(viaProxy);
      await section.getByRole('button', { name: '测试连接' }).click();
      await expect(testResult).toContainText('连接成功：这里已有同步的账本，同步密码正确。');
      await expect(testResult).toHaveClass(/good/);
      await section.getByRole('button', { name: '开始同步' }).click();
      await expect(section.getByLabel('再次输入同步密码')).toHaveCount(0);
      const naming = section.getByRole('group', { name: '确认本机名称' });
      await naming.getByLabel('本机名称').fill('客厅电脑');

      // Each download a little slow: the first round's progress stays on screen long enough to see.
      const slow = proxy.inject({ method: 'GET', path: /^\/suikouji\/.+/, times: Infinity, action: { kind: 'delay', ms: 700 } });
      await naming.getByRole('button', { name: '用这个名字开始同步' }).click();
      const bar = section.getByRole('progressbar', { name: '同步进度' });
      await expect(bar).toBeVisible({ timeout: 20_000 });
      // Past the first file, so the picture shows a bar under way.
      await expect(section.getByText(/^已下载 [1-9]\d* \/ \d+ 个文件$/)).toBeVisible({ timeout: 20_000 });
      await expect(section.getByRole('status', { name: '同步状态' })).toHaveText('正在同步…');
      await expect(section.getByRole('button', { name: '正在同步…' })).toBeDisabled();
      await section.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-first-progress');

      // Done: the other computer's rows are here, and both computers are listed by name.
      await expect(section.getByRole('status', { name: '同步状态' })).toContainText('上次同步：今天', { timeout: 60_000 });
      slow.remove();
      await expect(bar).toHaveCount(0);
      await expect(section.getByText(`WebDAV ${viaProxy}（用户 ${server.user}）`)).toBeVisible();
      await expect(section.getByTestId('sync-device-name')).toHaveText('客厅电脑');
      const devices = section.getByRole('list', { name: '同步的设备' }).getByRole('listitem');
      await expect(devices).toHaveCount(2);
      await expect(devices.first()).toContainText('客厅电脑');
      await expect(devices.first()).toContainText('本机');
      await expect(devices.filter({ hasText: '卧室电脑' })).toContainText('最近同步：今天');
      await expect(section.getByRole('alert')).toHaveCount(0);
      expect(
        app.core.ledger
          .list()
          .rows.map((row) => row.description)
          .sort(),
      ).toEqual([...notes].sort());
      expect(await overflowingElements(page, 'section[aria-label="同步"]', 'x')).toEqual([]);
      await section.scrollIntoViewIfNeeded();
      await screenshots(page, 'sync-webdav-connected');
      expect(await pageText(page)).not.toContain(server.password);
      expect(await pageText(page)).not.toContain(PASSPHRASE);
    } finally {
      other?.close();
      await proxy?.stop();
      await server?.stop();
    }
  });
});

/** How often `word` occurs in the element's text. */
async function mentions(locator: Locator, word: string): Promise<number> {
  const text = (await locator.textContent()) ?? '';
  return text.split(word).length - 1;
}

/** The passphrase is nowhere in the page (markup or input values), the app's data folder or the synced folder. */
async function assertNoSecret(page: Page, dataDir: string, remoteDir: string): Promise<void> {
  expect(await pageText(page)).not.toContain(PASSPHRASE);
  expect(filesContaining(dataDir, PASSPHRASE)).toEqual([]);
  expect(filesContaining(remoteDir, PASSPHRASE)).toEqual([]);
}
