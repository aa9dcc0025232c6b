import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncStatus } from '@shared/ipc/sync';
import { FakeLedgerApi, SYNC_OFF } from '../../../../../test/support/renderer/fake-ledger-api';
import SyncSection from './SyncSection.svelte';

const tick = () => new Promise((r) => setTimeout(r, 0));
const settle = async () => {
  for (let i = 0; i < 4; i++) await tick();
};

/** Today at a local wall-clock time, as main stamps it. */
function today(h: number, min: number): string {
  const d = new Date();
  return new Date(d.getFullYear(), d.getMonth(), d.getDate(), h, min).toISOString();
}

const JIANGUOYUN = 'https://dav.jianguoyun.com/dav/随口记/';

const configured: SyncStatus = {
  ...SYNC_OFF,
  state: 'idle',
  remote: { kind: 'webdav', url: JIANGUOYUN, user: 'wang@example.cn' },
  deviceName: '书房电脑',
  lastSyncAt: today(9, 7),
  pending: 3,
  devices: [
    { id: 'other', name: '客厅电脑', lastSeen: today(8, 30), self: false, books: 'same', rows: 1234 },
    { id: SYNC_OFF.deviceId, name: '书房电脑', lastSeen: today(9, 7), self: true, books: null, rows: 1234 },
  ],
  waiting: [],
  clockOffsetMs: null,
};

afterEach(() => cleanup());

async function open(setup: (fake: FakeLedgerApi) => void = () => {}) {
  const fake = new FakeLedgerApi();
  setup(fake);
  const { container } = render(SyncSection, { props: { api: fake.api } });
  await settle();
  return { fake, container };
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

async function type(name: string, value: string) {
  await fireEvent.input(field(name), { target: { value } });
}

describe('sync section, not set up', () => {
  it('explains the choices, the app password and the passphrase; the name waits for 开始同步', async () => {
    await open();
    expect((screen.getByRole('radio', { name: 'WebDAV 服务器' }) as HTMLInputElement).checked).toBe(true);
    const password = field('应用密码');
    expect(password.type).toBe('password');
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
    const hint = document.getElementById(password.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toContain('应用密码');
    expect(hint.textContent).toContain('https://dav.jianguoyun.com/dav/');
    const why = document.getElementById(field('同步密码').getAttribute('aria-describedby')!)!;
    expect(why.textContent).toContain('离开这台电脑之前');
    expect(why.textContent).toContain('无法找回');
    expect(why.textContent).toContain('每台设备都要填同一个同步密码');
    // The name is asked once, as 开始同步's last step (below), not among the connection's fields.
    expect(screen.queryByLabelText('本机名称')).toBeNull();
    // Nothing to confirm until the test tells the remote is new.
    expect(screen.queryByLabelText('再次输入同步密码')).toBeNull();
  });

  it('checks the form with the contract’s own words before sending anything', async () => {
    const { fake } = await open();
    await fireEvent.click(screen.getByRole('button', { name: '开始同步' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('请填写同步密码');
    await type('同步密码', 'short');
    await fireEvent.click(screen.getByRole('button', { name: '测试连接' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('请填写以 http:// 或 https:// 开头的 WebDAV 地址');
    await type('服务器地址', JIANGUOYUN);
    await fireEvent.click(screen.getByRole('button', { name: '测试连接' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('同步密码至少8位');
    expect(fake.inputsOf('syncTest')).toEqual([]);
    expect(fake.inputsOf('syncConfigure')).toEqual([]);
  });

  it('sets up a new WebDAV remote: tests, asks for the passphrase twice, then starts', async () => {
    const { fake, container } = await open();
    await type('服务器地址', ` ${JIANGUOYUN} `);
    await type('用户名', 'wang@example.cn');
    await type('应用密码', 'app-secret-123');
    await type('同步密码', 'correct horse');
    await fireEvent.click(screen.getByRole('button', { name: '测试连接' }));
    await settle();
    const expected = {
      remote: { kind: 'webdav', url: JIANGUOYUN, user: 'wang@example.cn', password: 'app-secret-123' },
      passphrase: 'correct horse',
      deviceName: '书房电脑',
    };
    expect(fake.inputsOf('syncTest')).toEqual([{ ...expected, deviceName: '这台电脑' }]);
    expect(screen.getByRole('status', { name: '连接测试结果' }).textContent).toBe('连接成功，这是一个新的同步位置。');

    // A new remote: the passphrase is asked again, and 开始同步 waits for it.
    await fireEvent.click(screen.getByRole('button', { name: '开始同步' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('请再输入一次同步密码');
    expect(document.activeElement).toBe(field('再次输入同步密码'));
    await type('再次输入同步密码', 'correct hors');
    await fireEvent.click(screen.getByRole('button', { name: '开始同步' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('两次输入的同步密码不一样');
    expect(fake.inputsOf('syncConfigure')).toEqual([]);

    await type('再次输入同步密码', 'correct horse');
    await fireEvent.click(screen.getByRole('button', { name: '开始同步' }));
    await settle();
    // Last, the name the other computers will list this one by: shown, selected, changeable.
    const confirm = screen.getByRole('group', { name: '确认本机名称' });
    expect(confirm.textContent).toContain('这台电脑会叫这个名字');
    const name = within(confirm).getByLabelText('本机名称') as HTMLInputElement;
    expect(name.value).toBe('这台电脑');
    expect(document.activeElement).toBe(name);
    expect(fake.inputsOf('syncConfigure')).toEqual([]);
    // An empty name is refused in the schema's words, and nothing is sent.
    await fireEvent.input(name, { target: { value: '  ' } });
    await fireEvent.click(within(confirm).getByRole('button', { name: '用这个名字开始同步' }));
    await settle();
    expect(within(confirm).getByRole('alert').textContent).toBe('请填写本机名称');
    expect(fake.inputsOf('syncConfigure')).toEqual([]);
    await fireEvent.input(name, { target: { value: '书房电脑' } });
    await fireEvent.click(within(confirm).getByRole('button', { name: '用这个名字开始同步' }));
    await settle();
    // The untouched inputs were tested already (a name is no part of a test): no second test.
    expect(fake.inputsOf('syncTest')).toHaveLength(1);
    expect(fake.inputsOf('syncConfigure')).toEqual([expected]);
    expect(screen.getByText(`WebDAV ${JIANGUOYUN}（用户 wang@example.cn）`)).toBeTruthy();
    expect(screen.getByRole('status', { name: '同步状态' }).textContent).toContain('上次同步：今天');
    expect(screen.queryByLabelText('应用密码')).toBeNull();
    // The secrets are gone from the page once sent.
    expect(container.innerHTML).not.toContain('app-secret-123');
    expect(container.innerHTML).not.toContain('correct horse');
  });

  it('joins a remote that has books: says local rows are merged, needs no repeat', async () => {
    const { fake } = await open((f) =>
      f.handle('syncTest', () => ({ reachable: true, existing: true, message: '连接成功，同步位置里已有账本。', localRows: 12 })),
    );
    await fireEvent.click(screen.getByRole('radio', { name: '本地文件夹' }));
    fake.syncFolder = '/home/wang/Sync/随口记';
    await fireEvent.click(screen.getByRole('button', { name: '选择…' }));
    await settle();
    expect(field('同步文件夹').value).toBe('/home/wang/Sync/随口记');
    // Closing the picker keeps the path.
    fake.syncFolder = null;
    await fireEvent.click(screen.getByRole('button', { name: '选择…' }));
    await settle();
    expect(field('同步文件夹').value).toBe('/home/wang/Sync/随口记');

    await type('同步密码', 'correct horse');
    // 开始同步 runs the test itself when nothing was tested, then asks for the name.
    await fireEvent.click(screen.getByRole('button', { name: '开始同步' }));
    await settle();
    expect(fake.inputsOf('syncTest')).toHaveLength(1);
    // 返回 goes back to the form; 开始同步 asks again.
    await fireEvent.click(screen.getByRole('button', { name: '返回' }));
    expect(screen.queryByRole('group', { name: '确认本机名称' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: '开始同步' }));
    await settle();
    expect(fake.inputsOf('syncConfigure')).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: '用这个名字开始同步' }));
    await settle();
    expect(fake.inputsOf('syncConfigure')).toEqual([
      { remote: { kind: 'folder', path: '/home/wang/Sync/随口记' }, passphrase: 'correct horse', deviceName: '这台电脑' },
    ]);
    expect(screen.getByText('本地文件夹 /home/wang/Sync/随口记')).toBeTruthy();
  });

  it('shows the merge note on 测试连接 and hides a result once the inputs change', async () => {
    await open((f) => f.handle('syncTest', () => ({ reachable: true, existing: true, message: '连接成功，同步位置里已有账本。', localRows: 12 })));
    await type('服务器地址', JIANGUOYUN);
    await type('同步密码', 'correct horse');
    await fireEvent.click(screen.getByRole('button', { name: '测试连接' }));
    await settle();
    const result = screen.getByRole('status', { name: '连接测试结果' }).textContent;
    expect(result).toContain('连接成功，同步位置里已有账本。');
    expect(result).toContain('这台电脑上已有的 12 条记录会合并进同步的账本，不会丢失任何数据');
    await type('服务器地址', 'https://cloud.example.cn/remote.php/dav/files/wang/随口记/');
    expect(screen.queryByRole('status', { name: '连接测试结果' })).toBeNull();
  });

  it('keeps the form as typed when the server refuses', async () => {
    const { fake } = await open();
    fake.failNext('syncTest', { code: 'login_refused', message: '用户名或应用密码不对，请在坚果云网页上重新生成应用密码。' });
    await type('服务器地址', JIANGUOYUN);
    await type('同步密码', 'correct horse');
    await fireEvent.click(screen.getByRole('button', { name: '开始同步' }));
    await settle();
    expect(screen.getByRole('status', { name: '连接测试结果' }).textContent).toContain('用户名或应用密码不对');
    expect(fake.inputsOf('syncConfigure')).toEqual([]);
    expect(field('服务器地址').value).toBe(JIANGUOYUN);
  });
});

describe('sync section, set up', () => {
  it('shows the remote, the status line and the devices, never a secret', async () => {
    await open((f) => (f.sync = structuredClone(configured)));
    expect(screen.getByText(`WebDAV ${JIANGUOYUN}（用户 wang@example.cn）`)).toBeTruthy();
    const line = screen.getByRole('status', { name: '同步状态' });
    expect(line.textContent).toBe('上次同步：今天 09:07 · 本地待上传 3 项');
    const devices = within(screen.getByRole('list', { name: '同步的设备' })).getAllByRole('listitem');
    expect(devices.map((d) => d.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      '书房电脑 本机 共 1234 笔 最近同步：今天 09:07',
      '客厅电脑 账目一致 共 1234 笔 最近同步：今天 08:30',
    ]);
    // Nothing is waiting and the clocks agree: no notice.
    expect(screen.queryByRole('list', { name: '等待中的更改' })).toBeNull();
    expect(screen.queryByText(/本机时钟/)).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(document.querySelector('input[type="password"]')).toBeNull();
  });

  it('follows the live status: progress while joining, then the error and when it retries', async () => {
    const { fake } = await open((f) => (f.sync = structuredClone(configured)));
    fake.emit({ channel: 'sync', event: { type: 'status', status: { ...configured, state: 'syncing', progress: { done: 3, total: 10 } } } });
    await tick();
    expect(screen.getByRole('status', { name: '同步状态' }).textContent).toBe('正在同步…');
    const bar = screen.getByRole('progressbar', { name: '同步进度' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([3, 10]);
    expect(screen.getByText('已下载 3 / 10 个文件')).toBeTruthy();
    expect((screen.getByRole('button', { name: '正在同步…' }) as HTMLButtonElement).disabled).toBe(true);

    fake.emit({
      channel: 'sync',
      event: {
        type: 'status',
        status: { ...configured, state: 'error', error: { code: 'unreachable', message: '连不上同步服务器，请检查网络' }, retryAt: today(23, 45) },
      },
    });
    await tick();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('连不上同步服务器，请检查网络。将在 23:45 重试。');
    expect(screen.getByRole('status', { name: '同步状态' }).textContent).toBe('上次同步：今天 09:07 · 本地待上传 3 项');
  });

  it('tells which devices’ books match this one, and why one may differ for a while', async () => {
    await open(
      (f) =>
        (f.sync = structuredClone({
          ...configured,
          devices: [
            ...configured.devices,
            { id: 'laptop', name: '卧室笔记本', lastSeen: today(7, 45), self: false, books: 'different', rows: 1200 },
            { id: 'old', name: '旧电脑', lastSeen: null, self: false, books: null, rows: null },
          ],
        })),
    );
    const list = screen.getByRole('list', { name: '同步的设备' });
    const devices = within(list).getAllByRole('listitem');
    expect(devices.map((d) => d.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      '书房电脑 本机 共 1234 笔 最近同步：今天 09:07',
      '客厅电脑 账目一致 共 1234 笔 最近同步：今天 08:30',
      '卧室笔记本 与本机不同 共 1200 笔 最近同步：今天 07:45 那台电脑还没收到本机最新的更改，或本机还没收到它的：两台电脑各自同步一次后应当一致。',
      '旧电脑',
    ]);
    // The words carry the meaning (not a colour alone), each badge styled by what it says.
    expect(within(devices[1]!).getByText('账目一致').classList.contains('same')).toBe(true);
    expect(within(devices[2]!).getByText('与本机不同').classList.contains('different')).toBe(true);
    // Nothing technical: no device id.
    expect(list.textContent).not.toMatch(/laptop|other|device-self/);
  });

  it('lists the changes it waits for and a wrong clock as information, not as errors', async () => {
    const { fake } = await open(
      (f) =>
        (f.sync = structuredClone({
          ...configured,
          waiting: [
            { device: 'laptop', deviceName: '卧室笔记本', seq: 42, since: today(10, 2), reason: 'missing' },
            { device: 'other', deviceName: '客厅电脑', seq: 7, since: today(8, 31), reason: 'damaged' },
            { device: 'tablet', deviceName: '平板', seq: 3, since: today(8, 0), reason: 'copying' },
          ],
          clockOffsetMs: -3 * 60_000,
        })),
    );
    const waiting = screen.getByRole('list', { name: '等待中的更改' });
    expect(
      within(waiting)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '在等 卧室笔记本 的更改（自今天 10:02）：那台电脑下次同步时会自动补上。',
      '客厅电脑 的一个同步文件在服务器上损坏了（自今天 08:31）：那台电脑下次同步时会自动重写。',
      '等待同步工具传完 平板 的文件（自今天 08:00）。',
    ]);
    expect(waiting.textContent).not.toMatch(/42|laptop/);
    const clock = screen.getByText('本机时钟比服务器慢约 3 分钟。');
    expect(screen.queryByRole('alert')).toBeNull();
    // Read out politely when it arrives: the live region is there before its text.
    expect(waiting.closest('[aria-live]')?.getAttribute('aria-live')).toBe('polite');
    expect(clock.closest('[aria-live]')).toBe(waiting.closest('[aria-live]'));

    // The next round: the clock is far off and sync pauses; the waiting is over.
    fake.emit({ channel: 'sync', event: { type: 'status', status: { ...configured, clockOffsetMs: 12 * 60_000 } } });
    await tick();
    expect(screen.queryByRole('list', { name: '等待中的更改' })).toBeNull();
    expect(screen.getByText('本机时钟比服务器快约 12 分钟，同步已暂停，请校准系统时间后再同步。')).toBeTruthy();

    // Main's own clock error says it all (which way, how far, what to do): said once, not twice.
    const skew = {
      code: 'clock_skew',
      message: '本机时钟比服务器快约 12 分钟：请把系统时间设为自动校准后再同步。在此之前本机的修改不会上传。',
    };
    fake.emit({ channel: 'sync', event: { type: 'status', status: { ...configured, state: 'error', error: skew, clockOffsetMs: 12 * 60_000 } } });
    await tick();
    expect(screen.getByRole('alert').textContent).toBe(skew.message);
    expect(document.body.textContent?.match(/本机时钟比服务器/g)).toHaveLength(1);
    expect(document.body.textContent?.match(/请校准系统时间|自动校准/g)).toHaveLength(1);
  });

  it('shows a changed key as main words it', async () => {
    const error = { code: 'key_changed', message: '同步位置的密钥和本机用过的不一样：请在这台电脑上重新填写同步密码。' };
    await open((f) => (f.sync = structuredClone({ ...configured, state: 'error', error })));
    expect(screen.getByRole('alert').textContent).toBe(error.message);
  });

  it('syncs now', async () => {
    const { fake } = await open((f) => (f.sync = structuredClone(configured)));
    await fireEvent.click(screen.getByRole('button', { name: '立即同步' }));
    await settle();
    expect(fake.inputsOf('syncNow')).toEqual([{}]);
    expect(screen.getByRole('status', { name: '同步状态' }).textContent).toContain('已全部上传');
  });

  it('changes the settings keeping the stored password and passphrase when left empty', async () => {
    const { fake } = await open((f) => (f.sync = structuredClone(configured)));
    await fireEvent.click(screen.getByRole('button', { name: '更改设置…' }));
    expect(field('服务器地址').value).toBe(JIANGUOYUN);
    expect(field('用户名').value).toBe('wang@example.cn');
    expect(field('应用密码').value).toBe('');
    expect(field('应用密码').placeholder).toContain('留空则不修改');
    expect(field('同步密码').placeholder).toContain('留空则不修改');
    expect(field('本机名称').value).toBe('书房电脑');
    await type('本机名称', '书房的电脑');
    await fireEvent.click(screen.getByRole('button', { name: '保存并同步' }));
    await settle();
    expect(fake.inputsOf('syncConfigure')).toEqual([
      { remote: { kind: 'webdav', url: JIANGUOYUN, user: 'wang@example.cn', password: '' }, passphrase: '', deviceName: '书房的电脑' },
    ]);
    expect(screen.getByText('本机名称').nextElementSibling?.textContent).toBe('书房的电脑');

    // 取消 goes back without sending anything.
    await fireEvent.click(screen.getByRole('button', { name: '更改设置…' }));
    await fireEvent.click(screen.getByRole('button', { name: '取消' }));
    expect(screen.queryByLabelText('服务器地址')).toBeNull();
    expect(fake.inputsOf('syncConfigure')).toHaveLength(1);
  });

  it('stops only after the confirm dialog, and the books stay', async () => {
    const { fake } = await open((f) => (f.sync = structuredClone(configured)));
    await fireEvent.click(screen.getByRole('button', { name: '停止同步…' }));
    const dialog = screen.getByRole('alertdialog', { name: '停止在这台电脑上同步？' });
    expect(dialog.textContent).toContain('账本会留在这台电脑上');
    expect(dialog.textContent).toContain('其他设备照常同步');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: '取消' }));
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.inputsOf('syncStop')).toEqual([]);

    await fireEvent.click(screen.getByRole('button', { name: '停止同步…' }));
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: '停止同步' }));
    await settle();
    expect(fake.inputsOf('syncStop')).toEqual([{}]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('账本仍保留在这台电脑上');
    // Ready to set up again, with the former remote filled in but no secret.
    expect(field('服务器地址').value).toBe(JIANGUOYUN);
    expect(field('同步密码').value).toBe('');
    expect(screen.getByRole('button', { name: '开始同步' })).toBeTruthy();
  });

  it('says when the status cannot be read', async () => {
    await open((f) => f.failNext('syncStatus', { code: 'x', message: '读取同步状态失败。' }));
    expect(screen.getByRole('alert').textContent).toBe('读取同步状态失败。');
  });
});
