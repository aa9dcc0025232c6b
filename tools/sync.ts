// `npm run sync -- --db PATH --remote URL_OR_FOLDER [--user NAME] [--device-name NAME]`: one
// sync round of a ledger file, through the same engine the app runs. The WebDAV password and
// the sync passphrase come ONLY from the environment (SUIKOUJI_SYNC_PASSWORD,
// SUIKOUJI_SYNC_PASSPHRASE), never argv, where other users of the machine could read them.
// Prints one JSON line: {"pushed", "pulled", "rows", "filesRead", "filesWritten", "rewritten",
// "waiting": [{"device", "deviceName", "seq", "since", "reason"}], "clockOffsetMs", "device"}.
// Exit codes: 0 done (waiting may list other devices' changes not here yet); 1 bad usage;
// 2 wrong passphrase; 3 a remote file refused (tampered, truncated, foreign, too large — the
// JSON line is still printed: the rest of the round was done); 4 server unreachable, login
// refused, the server failed (or did not keep what it was sent) or the clock is off; 5 the
// remote's key file is not the one this device synced with — each with a one-line reason on
// stderr.
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage } from '@shared/errors';
import { openLedger, type Ledger } from '@core/ledger/index';
import { SyncEngine } from '@core/sync/engine';
import { SyncError } from '@core/sync/errors';
import { FolderRemote } from '@core/sync/folder-remote';
import type { Remote } from '@core/sync/remote';
import { WebDavRemote } from '@core/sync/webdav-remote';

export const USAGE = `Usage: npm run sync -- --db PATH --remote URL_OR_FOLDER [options]

Runs one sync round. The remote is a WebDAV URL (http:// or https://) or a folder.
Options:
  --user NAME          the WebDAV login
  --device-name NAME   how other computers name this one (default: the host name)
  --compact-after N    this device's change files kept before a snapshot replaces them (default 50)
  --help               this text
Environment: SUIKOUJI_SYNC_PASSPHRASE (required), SUIKOUJI_SYNC_PASSWORD (WebDAV).
Prints {"pushed","pulled","rows","rewritten","waiting":[{"device","deviceName","seq","since","reason"}],…}.
Exit: 0 done, 1 usage, 2 wrong passphrase, 3 remote file refused (damaged; the JSON is
  still printed), 4 server unreachable / login refused / server error / clock off,
  5 the remote's key file was replaced or altered.

Examples:
  SUIKOUJI_SYNC_PASSPHRASE=… npm run sync -- --db books.db --remote ~/Nutstore/suikouji
  SUIKOUJI_SYNC_PASSPHRASE=… SUIKOUJI_SYNC_PASSWORD=… npm run sync -- --db books.db --remote https://dav.jianguoyun.com/dav/suikouji/ --user me@example.com`;

export interface SyncIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  cwd?: string;
}

const EXIT: Partial<Record<string, number>> = {
  wrong_passphrase: 2,
  refused_file: 3,
  key_changed: 5,
  unreachable: 4,
  login_refused: 4,
  server_error: 4,
  not_found: 4,
  changed_underneath: 4,
  clock_skew: 4,
};

function parseArgs(argv: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      args.help = '1';
      continue;
    }
    const m = /^--(db|remote|user|device-name|compact-after)(?:=(.*))?$/.exec(arg);
    if (!m) throw new SyncError('not_configured', `不认识的参数：${arg}（见 --help）`);
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new SyncError('not_configured', `${arg} 后面缺少值`);
    args[m[1]!] = value;
  }
  return args;
}

export async function runSyncCommand(argv: readonly string[], io: SyncIo): Promise<number> {
  let ledger: Ledger | undefined;
  try {
    const args = parseArgs(argv);
    if (args.help) {
      io.out(USAGE);
      return 0;
    }
    if (!args.db || !args.remote) throw new SyncError('not_configured', '需要 --db PATH 和 --remote URL_OR_FOLDER（见 --help）');
    const passphrase = io.env.SUIKOUJI_SYNC_PASSPHRASE ?? '';
    if (passphrase.length < 8) throw new SyncError('not_configured', '请在环境变量 SUIKOUJI_SYNC_PASSPHRASE 里提供同步密码（至少8位）');
    const cwd = io.cwd ?? process.cwd();
    ledger = openLedger({ path: resolve(cwd, args.db) });
    const device = ledger.journal.deviceId;
    const remote: Remote = /^https?:\/\//i.test(args.remote)
      ? new WebDavRemote({ url: args.remote, user: args.user ?? '', password: io.env.SUIKOUJI_SYNC_PASSWORD ?? '', device })
      : new FolderRemote(resolve(cwd, args.remote), device);
    const compactAfter = args['compact-after'] === undefined ? undefined : Number(args['compact-after']);
    if (compactAfter !== undefined && !(Number.isInteger(compactAfter) && compactAfter >= 1 && compactAfter <= 1000)) {
      throw new SyncError('not_configured', '--compact-after 需要 1 到 1000 之间的整数');
    }
    if (!ledger.journal.capture) ledger.journal.setCapture(true);
    const engine = new SyncEngine({
      db: ledger.database,
      journal: ledger.journal,
      dbPath: ledger.path,
      remote,
      passphrase,
      deviceName: args['device-name'] ?? hostname(),
      ...(compactAfter === undefined ? {} : { compactAfter }),
    });
    const result = await engine.round().catch((err: unknown) => {
      // A refused file stops that device's files only: what the round did is still reported.
      if (err instanceof SyncError && err.result) io.out(JSON.stringify({ ...(err.result as object), rows: ledger!.count(), device }));
      throw err;
    });
    io.out(JSON.stringify({ ...result, rows: ledger.count(), device }));
    return 0;
  } catch (error) {
    io.err(`sync: ${errorMessage(error).replace(/\s*\n\s*/g, ' ')}`);
    return error instanceof SyncError ? (EXIT[error.code] ?? 1) : 1;
  } finally {
    ledger?.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runSyncCommand(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    cwd: process.env.INIT_CWD ?? process.cwd(),
  }).then((code) => {
    process.exitCode = code;
  });
}
