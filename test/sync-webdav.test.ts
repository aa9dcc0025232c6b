// Sync through a REAL WebDAV server (Apache mod_dav on loopback) and through a plain folder:
// two and three ledgers converge after adds, edits, deletes and category renames made with
// tools/ledger.ts, in-process and as the child processes a user's script runs; a device that
// joins late gets everything; the server never holds a byte of plaintext; an idle round costs
// at most two requests, whatever the size of the books.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '@core/ledger/index';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy';
import { davRemote, Device, folderRemote, ledgerCli, PASSPHRASE, syncCli, type MakeRemote } from './support/sync-webdav-devices';
import { apacheAvailable, listRemoteFiles, startWebDav, type WebDavServer } from './support/webdav-server';

const dir = mkdtempSync(join(tmpdir(), 'skj-sync-webdav-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const device = (name: string) => new Device(join(dir, `${++n}-${name}.db`), name);

/** All devices' books, the first one's as the reference: every other must equal it. */
function expectSameBooks(...devices: Device[]): string[] {
  const reference = devices[0]!.list();
  for (const d of devices.slice(1)) expect(d.list(), `${d.name} vs ${devices[0]!.name}`).toEqual(reference);
  return reference;
}

const parse = (line: string) => JSON.parse(line) as Record<string, unknown>;
const byId = (lines: string[]) => new Map(lines.map((l) => [parse(l).id as string, parse(l)]));

/** Adds, edits, deletes and a category rename on two devices, then a third that joins late. */
async function household(remote: MakeRemote): Promise<void> {
  const [a, b, c] = [device('客厅电脑'), device('书房电脑'), device('笔记本')];
  const lunch = a.add({ amount: 35.5, category: '餐饮', description: '午饭 牛肉面' });
  const taxi = a.add({ amount: 48, category: '交通', description: '打车回家' });
  const salary = a.add({ amount: 8000, type: 'INCOME', category: '工资', description: '二月工资' });
  const dinner = b.add({ amount: 120, category: '餐饮', description: '晚饭 火锅' });
  await a.sync(remote);
  await b.sync(remote);
  await a.sync(remote);
  expect(expectSameBooks(a, b)).toHaveLength(4);

  // Both change the books between rounds: edits of the other's rows, a delete, a rename.
  b.ledger('edit', lunch, JSON.stringify({ amount: 36, description: '午饭 牛肉面 加蛋' }));
  b.ledger('delete', taxi);
  a.ledger('edit', dinner, JSON.stringify({ category: '交通', description: '晚饭改成打车' }));
  a.ledger('category-rename', '餐饮', '伙食');
  const coffee = b.add({ amount: 18, category: '餐饮', description: '咖啡' });
  await b.sync(remote);
  await a.sync(remote);
  await b.sync(remote);
  const books = byId(expectSameBooks(a, b));
  expect([...books.keys()].sort()).toEqual([lunch, salary, dinner, coffee].sort());
  expect(books.get(lunch)).toMatchObject({ amount: 36, description: '午饭 牛肉面 加蛋', category: '伙食' });
  expect(books.get(dinner)).toMatchObject({ category: '交通', description: '晚饭改成打车' });
  expect(books.get(coffee)).toMatchObject({ category: '伙食' });
  expect(books.get(salary)).toMatchObject({ amount: 8000, type: 'INCOME' });

  // A third computer joins with a row of its own: it gets everything, and the others get its row.
  const gift = c.add({ amount: 200, category: '餐饮', description: '请客' });
  await c.sync(remote);
  await a.sync(remote);
  await b.sync(remote);
  await c.sync(remote);
  const all = expectSameBooks(a, b, c);
  expect(all).toHaveLength(5);
  expect(byId(all).get(gift)).toBeDefined();
}

describe.skipIf(!apacheAvailable())('sync through a real WebDAV server (skipped when apache2 is not installed)', () => {
  let dav: WebDavServer;
  const folder = (name: string) => davRemote(`${dav.url}${name}/`, dav.user, dav.password);

  beforeAll(async () => {
    dav = await startWebDav();
  });
  afterAll(async () => {
    await dav?.stop();
  });

  it('two, then three ledgers converge: adds, edits, deletes, a category rename, a late joiner (in-process engine)', async () => {
    await household(folder('household'));
    // The app's sync folder holds only its own files.
    const names = listRemoteFiles(dav)
      .filter((f) => f.path.startsWith('household/'))
      .map((f) => f.path.slice('household/'.length));
    expect(names).toContain('suikouji-sync.json');
    for (const name of names) expect(name).toMatch(/^(suikouji-sync\.json|[0-9a-f]{16}\.((c|s)\.\d{10}|state)\.skj)$/);
  });

  it('the same through the CLIs: tools/ledger.ts and tools/sync.ts as child processes', async () => {
    const url = `${dav.url}cli/`;
    const [a, b, c] = [device('A'), device('B'), device('C')];
    // The remote is set up by the app (a cheap scrypt, so each child unlocks it fast); the rest is the CLIs.
    a.add({ amount: 1, description: '开户' });
    await a.sync(folder('cli'));
    const cli = (d: Device) => syncCli(d.path, url, { user: dav.user, password: dav.password, deviceName: d.name });
    const ok = async (p: ReturnType<typeof syncCli>) => {
      const r = await p;
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { pushed: number; pulled: number; rows: number };
    };
    const added = await Promise.all([
      ledgerCli(a.path, 'add', '{"amount":66.6,"category":"餐饮","description":"早茶"}'),
      ledgerCli(b.path, 'add', '{"amount":9.9,"description":"地铁"}'),
    ]);
    for (const r of added) expect(r.code, r.stderr).toBe(0);
    const [tea, metro] = added.map((r) => (JSON.parse(r.stdout) as { id: string }).id) as [string, string];
    expect((await ok(cli(a))).pushed).toBe(1);
    expect(await ok(cli(b))).toMatchObject({ rows: 3 });
    expect(await ok(cli(a))).toMatchObject({ rows: 3 });
    const edits = await Promise.all([ledgerCli(b.path, 'edit', tea, '{"amount":70}'), ledgerCli(a.path, 'delete', metro)]);
    for (const r of edits) expect(r.code, r.stderr).toBe(0);
    expect((await ledgerCli(b.path, 'category-rename', '餐饮', '吃饭')).code).toBe(0);
    await ok(cli(b));
    await ok(cli(a));
    await ok(cli(c));
    await ok(cli(b));
    const lists = await Promise.all([a, b, c].map((d) => ledgerCli(d.path, 'list')));
    const sorted = lists.map((r) => r.stdout.trim().split('\n').sort());
    expect(sorted[1]).toEqual(sorted[0]);
    expect(sorted[2]).toEqual(sorted[0]);
    const books = byId(sorted[0]!);
    expect(books.get(tea)).toMatchObject({ amount: 70, category: '吃饭' });
    expect(books.has(metro)).toBe(false);
    expect(books.size).toBe(2);
  });

  it('the server never sees plaintext: no description, amount, category, account or device name anywhere under its root', async () => {
    const secret = {
      description: '机密描述三文鱼刺身',
      category: '秘密分类甲',
      account: '私密账户乙',
      deviceA: '张三的笔记本',
      deviceB: '李四的台式机',
    };
    const a = new Device(join(dir, 'plain-a.db'), secret.deviceA);
    const b = new Device(join(dir, 'plain-b.db'), secret.deviceB);
    const setup = openLedger({ path: a.path });
    setup.addAccount(secret.account);
    setup.addCategory(secret.category, 'EXPENSE');
    setup.close();
    const id = a.add({ amount: 123.45, category: secret.category, account: secret.account, description: secret.description });
    const remote = folder('secret');
    await a.sync(remote);
    a.ledger('edit', id, JSON.stringify({ description: `${secret.description}（改）` }));
    await a.sync(remote); // a change file
    await b.sync(remote); // b's first snapshot carries everything
    b.ledger('edit', id, JSON.stringify({ amount: 123.45, description: `${secret.description}·二` }));
    await b.sync(remote, { compactAfter: 1 }); // a change file compacted into a snapshot
    await a.sync(remote, { compactAfter: 1 });
    const books = expectSameBooks(a, b);
    expect(books.join('\n')).toContain(secret.description); // the rows did travel
    expect(books.join('\n')).toContain(secret.account);

    const stored = listRemoteFiles(dav).filter((f) => f.path.startsWith('secret/'));
    expect(stored.length).toBeGreaterThanOrEqual(3);
    const needles = [
      ...Object.values(secret),
      `${secret.description}（改）`,
      `${secret.description}·二`,
      '12345',
      '123.45',
      PASSPHRASE,
      dav.password,
    ];
    for (const file of stored) {
      for (const needle of needles) {
        for (const encoding of ['utf8', 'utf16le'] as const) {
          expect(file.bytes.includes(Buffer.from(needle, encoding)), `${needle} (${encoding}) in ${file.path}`).toBe(false);
        }
      }
    }
    // Nor in what the server was asked for (file names only).
    const paths = dav.requests().map((r) => r.path);
    for (const needle of needles)
      expect(
        paths.some((p) => p.includes(needle)),
        needle,
      ).toBe(false);
  });

  describe('an idle round', () => {
    let proxy: FaultProxy;
    beforeAll(async () => {
      proxy = await startFaultProxy(dav.url);
    });
    afterAll(async () => {
      await proxy?.stop();
    });

    /** Requests the proxy saw while `fn` ran. */
    async function counted(fn: () => Promise<unknown>): Promise<string[]> {
      const before = proxy.requests().length;
      await fn();
      return proxy
        .requests()
        .slice(before)
        .map((r) => `${r.method} ${r.path}`);
    }

    for (const rows of [20, 2000]) {
      it(`costs at most 2 requests with ${rows} rows on three devices`, async () => {
        const remote = davRemote(`${proxy.url}idle${rows}/`, dav.user, dav.password);
        const [a, b, c] = [device('一'), device('二'), device('三')];
        const ledger = openLedger({ path: a.path });
        ledger.database.transaction(() => {
          for (let i = 0; i < rows; i++)
            ledger.addTransaction({ amountFen: 100 + i, type: 'EXPENSE', date: '2026-01-15', time: '12:00', note: `第${i}笔` });
        })();
        ledger.close();
        // A household at rest: each device has read what the others published after their last rounds.
        for (const d of [a, b, c, a, b, c]) await d.sync(remote);
        expect(expectSameBooks(a, b, c)).toHaveLength(rows);

        // A fresh start of the app: the listing and the key file.
        const fresh = await counted(() => c.sync(remote));
        expect(fresh.length, fresh.join('\n')).toBeLessThanOrEqual(2);
        expect(fresh[0]).toBe(`PROPFIND /idle${rows}`);
        // The app keeps its engine: later idle rounds are the listing alone.
        const app = a.open(remote);
        try {
          await app.engine.round();
          for (let i = 0; i < 3; i++) {
            const idle = await counted(() => app.engine.round());
            expect(idle).toEqual([`PROPFIND /idle${rows}`]);
          }
        } finally {
          app.close();
        }
      });
    }
  });
});

describe('sync through a folder (FolderRemote, `--remote FOLDER`)', () => {
  it('two, then three ledgers converge (in-process engine)', async () => {
    await household(folderRemote(join(dir, 'folder-household')));
  });

  it('tools/sync.ts with --remote FOLDER joins a folder the app set up', async () => {
    const folder = join(dir, 'folder-cli');
    mkdirSync(folder);
    const [a, b] = [device('A'), device('B')];
    const id = a.add({ amount: 5, description: '文件夹同步' });
    await a.sync(folderRemote(folder));
    const r = await syncCli(b.path, folder, { deviceName: 'B' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ pulled: 1, rows: 1 });
    b.ledger('edit', id, '{"amount":6}');
    const again = await syncCli(b.path, folder, { deviceName: 'B' });
    expect(again.code, again.stderr).toBe(0);
    await a.sync(folderRemote(folder));
    expect(byId(expectSameBooks(a, b)).get(id)).toMatchObject({ amount: 6 });
  });
});
