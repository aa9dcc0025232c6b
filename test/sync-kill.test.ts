// kill -9 of a sync process at random moments: tools/sync.ts's command runs as a child against
// a real WebDAV server (Apache) and is SIGKILLed at a seeded random moment of its round (0 ms
// to as long as a whole round takes on this machine, at least 300 ms) — mid-download, mid-apply,
// mid-upload (between the PUT of the temp file and its MOVE), mid-compaction (the snapshot
// built, the superseded files half deleted). Two devices' sync processes run at once and are
// killed independently; between kills all three devices keep changing their books. Afterwards
// plain rounds must converge: every row expected is there once, with its last value, on every
// device; no temp file is left on the server.
//
// SUIKOUJI_SYNC_KILLS sets the number of kills (default 12; 20+ for a long run); SUIKOUJI_SYNC_KILL_SEED replays a
// run (the seed is printed, and named in every failure).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '@core/ledger/index';
import { prng } from './support/prng';
import { davRemote, Device, PASSPHRASE, ROOT } from './support/sync-webdav-devices';
import { apacheAvailable, startWebDav, type WebDavServer } from './support/webdav-server';

const KILLS = Number(process.env.SUIKOUJI_SYNC_KILLS ?? 12);
const SEED = Number(process.env.SUIKOUJI_SYNC_KILL_SEED ?? Date.now() % 1_000_000);
const CHILD = 'test/support/sync-kill-child.ts';

const dir = mkdtempSync(join(tmpdir(), 'skj-sync-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Killed {
  /** Exit code when the round finished before the kill; null when the kill landed. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** From "ready" to the exit (or the kill), ms. */
  ms: number;
}

/**
 * Starts a sync child; once it has loaded, `go(delayMs)` starts its round and SIGKILLs it
 * `delayMs` later (never, for Infinity).
 */
function prepare(args: string[], env: NodeJS.ProcessEnv): { go(delayMs: number): Promise<Killed> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const loaded = new Promise<void>((resolve, reject) => {
    const check = () => (stdout.startsWith('ready\n') ? resolve() : undefined);
    child.stdout.on('data', check);
    child.on('error', reject);
    child.on('close', () => reject(new Error(`sync child exited before it was ready: ${stderr}`)));
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    async go(delayMs) {
      await loaded;
      const started = Date.now();
      child.stdin.write('go\n');
      const timer = Number.isFinite(delayMs) ? setTimeout(() => child.kill('SIGKILL'), delayMs) : undefined;
      const code = await closed;
      clearTimeout(timer);
      return { code, stdout: stdout.slice('ready\n'.length), stderr, ms: Date.now() - started };
    },
  };
}

describe.skipIf(!apacheAvailable())('kill -9 of a sync process at random moments (skipped when apache2 is not installed)', () => {
  let dav: WebDavServer;

  beforeAll(async () => {
    dav = await startWebDav();
  });
  afterAll(async () => {
    await dav?.stop();
  });

  it(`${KILLS} kills mid-round, then plain rounds: nothing lost, nothing doubled, the same books (seed ${SEED})`, async () => {
    console.log(`sync-kill: seed ${SEED} (replay with SUIKOUJI_SYNC_KILL_SEED=${SEED})`);
    const random = prng(SEED);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const remote = davRemote(`${dav.url}kill/`, dav.user, dav.password);
    // A and B are the sync processes killed; C writes a lot between kills (so A and B have big
    // files to apply) and syncs only in-process.
    const devices = ['A', 'B', 'C'].map((name) => new Device(join(dir, `${name}.db`), name));
    /** What the books must end as: id → amount in fen, and which device owns (edits) the row. */
    const expected = new Map<string, { fen: number; owner: number }>();
    const owned: string[][] = [[], [], []];

    /** `count` random changes on device `d`, in one transaction: adds, edits and deletes of its own rows. */
    const change = (d: number, count: number) => {
      const ledger = openLedger({ path: devices[d]!.path });
      const own = owned[d]!;
      try {
        ledger.database.transaction(() => {
          for (let i = 0; i < count; i++) {
            const r = random();
            const fen = 100 + Math.floor(random() * 100_000);
            if (own.length === 0 || r < 0.4) {
              const row = ledger.addTransaction({
                amountFen: fen,
                type: 'EXPENSE',
                date: '2026-01-10',
                time: '09:30',
                note: `设备${devices[d]!.name} 第${expected.size}笔`,
              });
              expected.set(row.id, { fen, owner: d });
              own.push(row.id);
            } else if (r < 0.9) {
              const id = pick(own);
              ledger.updateTransaction(id, { amountFen: fen });
              expected.set(id, { fen, owner: d });
            } else {
              const id = own.splice(Math.floor(random() * own.length), 1)[0]!;
              ledger.deleteTransaction(id);
              expected.delete(id);
            }
          }
        })();
      } finally {
        ledger.close();
      }
    };

    // Books big enough that a snapshot takes a moment; A and B one change file short of compaction
    // (the default: 30), so the first round of theirs that gets through its upload compacts.
    change(0, 400);
    change(1, 200);
    change(2, 100);
    for (const d of [0, 1, 2, 0, 1]) await devices[d]!.sync(remote);
    for (const d of [0, 1]) {
      const app = devices[d]!.open(remote);
      try {
        for (let i = 0; i < 29; i++) {
          const row = app.ledger.addTransaction({ amountFen: 1000 + i, type: 'EXPENSE', date: '2026-01-11', time: '10:00', note: `预热 ${i}` });
          expected.set(row.id, { fen: 1000 + i, owner: -1 });
          await app.engine.round();
        }
      } finally {
        app.close();
      }
    }
    const deviceIds = [0, 1].map((d) => {
      const ledger = openLedger({ path: devices[d]!.path });
      const id = ledger.journal.deviceId;
      ledger.close();
      return id;
    });
    const onServer = (d: number) => readdirSync(join(dav.root, 'kill')).filter((f) => f.startsWith(`${deviceIds[d]}.`));

    const env = { ...process.env, SUIKOUJI_SYNC_PASSPHRASE: PASSPHRASE, SUIKOUJI_SYNC_PASSWORD: dav.password };
    const child = (d: number) =>
      prepare(['--db', devices[d]!.path, '--remote', `${dav.url}kill/`, '--user', dav.user, '--device-name', devices[d]!.name], env);
    let next = [child(0), child(1)];
    // How long a whole round takes here (a loaded machine is slower): kills spread over all of it.
    const durations: number[] = [];
    const typical = () => Math.max(300, durations.sort((x, y) => x - y)[Math.floor(durations.length / 2)] ?? 300);
    const outcomes: string[] = [];
    // A and B sync at the same time, as two computers do; each is killed at its own moment, until
    // KILLS kills have landed (a round that ends before its kill is a plain round: it counts too).
    let kills = 0;
    for (let i = 0; kills < KILLS && i < KILLS * 2; i++) {
      change(2, 20 + Math.floor(random() * 100));
      await devices[2]!.sync(remote);
      change(0, 1 + Math.floor(random() * 30));
      change(1, 1 + Math.floor(random() * 30));
      const delays = [0, 1].map(() => (i === 0 ? Infinity : Math.floor(random() * typical())));
      const current = next;
      const runs = Promise.all([0, 1].map((d) => current[d]!.go(delays[d]!)));
      // The next pair loads while this one runs.
      next = [child(0), child(1)];
      (await runs).forEach((r, d) => {
        if (r.code !== null) {
          // The other device compacting at the same moment can take a listed file away: that
          // round stops (changed_underneath, exit 4) and the next one picks up the snapshot.
          if (r.code !== 0) expect(`${r.code} ${r.stderr}`, `seed ${SEED}, run ${i}`).toMatch(/^4 sync: 远端文件 \S+ 在同步过程中被其他设备移走了/);
          else durations.push(r.ms);
        } else kills += 1;
        // Where the kill landed, as far as the server shows it.
        const files = onServer(d);
        const snapshot = Math.max(...files.filter((f) => f.includes('.s.')).map((f) => Number(f.split('.')[2])));
        const superseded = files.some((f) => f.includes('.c.') && Number(f.split('.')[2]) <= snapshot);
        const where =
          r.code !== null
            ? r.code === 0
              ? 'finished'
              : 'changed_underneath'
            : files.some((f) => f.includes('.tmp.'))
              ? 'killed:upload'
              : superseded
                ? 'killed:compaction'
                : 'killed';
        outcomes.push(`${devices[d]!.name}@${Number.isFinite(delays[d]) ? `${delays[d]}ms` : '∞'}:${where}`);
        // The killed device's ledger opens and reads.
        const ledger = openLedger({ path: devices[d]!.path });
        expect(ledger.count(), `seed ${SEED}`).toBeGreaterThan(0);
        ledger.close();
      });
    }
    // The pair loaded for a round that never came: end them before the plain rounds.
    await Promise.all(next.map((c) => c.go(0)));
    const snapshots = readdirSync(join(dav.root, 'kill')).filter((f) => f.includes('.s.'));
    console.log(`sync-kill: a whole round takes ~${typical()} ms; ${outcomes.join(' ')}; snapshots after: ${snapshots.join(' ')}`);
    expect(kills, `seed ${SEED}`).toBeGreaterThanOrEqual(KILLS);

    // Plain rounds: everything converges.
    for (const d of [0, 1, 2, 0, 1]) await devices[d]!.sync(remote);
    const books = devices.map((d) => d.list());
    expect(books[1], `seed ${SEED}`).toEqual(books[0]);
    expect(books[2], `seed ${SEED}`).toEqual(books[0]);
    const rows = books[0]!.map((l) => JSON.parse(l) as { id: string; amount: number });
    expect(rows.length, `seed ${SEED}: nothing doubled`).toBe(new Set(rows.map((r) => r.id)).size);
    expect(rows.map((r) => r.id).sort(), `seed ${SEED}: nothing lost, nothing extra`).toEqual([...expected.keys()].sort());
    for (const row of rows) expect(Math.round(row.amount * 100), `seed ${SEED}: ${row.id}`).toBe(expected.get(row.id)!.fen);
    // The killed rounds' temp files and superseded files were cleaned up by later rounds.
    const left = readdirSync(join(dav.root, 'kill'));
    expect(left.filter((f) => f.includes('.tmp.'))).toEqual([]);
  }, 120_000);
});
