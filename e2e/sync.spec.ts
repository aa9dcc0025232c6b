import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { openLedger, type Ledger } from '@core/ledger/index';
import { SyncEngine } from '@core/sync/engine';
import { FolderRemote } from '@core/sync/folder-remote';
import { expect, hanziRenderAsGlyphs, overflowingElements, screenshots, test } from './fixtures';

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

/** The second computer: its own ledger file and engine on the same synced folder. */
class OtherDevice {
  readonly ledger: Ledger;
  readonly engine: SyncEngine;

  constructor(
    readonly dir: string,
    remoteDir: string,
  ) {
    this.ledger = openLedger({ path: join(dir, 'ledger.db') });
    this.ledger.journal.setCapture(true);
    this.engine = new SyncEngine({
      db: this.ledger.database,
      journal: this.ledger.journal,
      dbPath: this.ledger.path,
      remote: new FolderRemote(remoteDir, this.ledger.journal.deviceId),
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
      await section.getByLabel('设备名称').fill('书房电脑');

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

      const line = section.getByRole('status', { name: '同步状态' });
      await expect(line).toContainText('上次同步：今天');
      await expect(section.getByText(`本地文件夹 ${remoteDir}`)).toBeVisible();
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
      const ledgerRows = ledgerWindow.getByRole('listbox', { name: '明细列表' }).getByRole('option');
      await expect(ledgerWindow.getByRole('heading', { name: '明细' })).toBeVisible();
      await expect(ledgerRows.filter({ hasText: '楼下早餐' })).toHaveCount(0);

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
      const arrived = ledgerRows.filter({ hasText: '楼下早餐' });
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
      const rows = page.getByRole('listbox', { name: '明细列表' }).getByRole('option');
      await expect(rows.filter({ hasText: '楼下早餐' })).toHaveCount(1);
      expect(await overflowingElements(page, '[role="listbox"] [role="option"]', 'x')).toEqual([]);
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
      await expect(section.getByRole('status', { name: '同步状态' })).toContainText('上次同步：今天');
      expect(app.core.ledger.list().rows.filter((row) => row.description === '地铁')).toHaveLength(1);

      await assertNoSecret(page, app.dataDir, remoteDir);
      expect(await pageText(page)).not.toContain(WRONG_PASSPHRASE);
    } finally {
      rmSync(remoteDir, { recursive: true, force: true });
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
