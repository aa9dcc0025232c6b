import { z } from 'zod';
import { SyncError } from './errors';
import { publishedStateSchema, type PublishedState } from './device-state';
import { DeviceClock, isTimestamp } from './hlc';
import type { Cell, RowChange } from './rows';

/**
 * What is inside a sealed change file (gzip'd JSON): the device's journal entries since its
 * previous file, `[ts, table, key, {column: value}]`. (Snapshots are SQLite files: snapshot.ts.)
 */
const changesSchema = z
  .object({
    // 2: the header also carries what the device publishes about itself (device-state.ts).
    v: z.union([z.literal(1), z.literal(2)]),
    kind: z.literal('changes'),
    device: z.string().regex(/^[0-9a-f]{16}$/),
    /** The device's name, shown in every device's list. */
    name: z.string().max(100),
    seq: z.number().int().positive(),
    /** When the file was written (ISO 8601). */
    at: z.string().max(40),
    state: publishedStateSchema.optional(),
    changes: z.array(z.unknown()),
  })
  .strict();

export type FileHeader = { device: string; name: string; seq: number; at: string };
export type ChangesFile = FileHeader & { changes: RowChange[]; maxTs: string; state: PublishedState | null };

/** Parses a change file's plaintext; anything malformed is refused as a whole. */
export function parseChanges(plain: Buffer, expected: { device: string; seq: number; name: string }): ChangesFile {
  const refused = (why: string) => new SyncError('refused_file', `远端文件 ${expected.name} 内容无效（${why}），已拒绝，未应用其中任何内容。`);
  let json: unknown;
  try {
    json = JSON.parse(plain.toString('utf8'));
  } catch {
    throw refused('不是有效的数据');
  }
  const parsed = changesSchema.safeParse(json);
  if (!parsed.success) throw refused(parsed.error.issues[0]?.message ?? '格式不对');
  const file = parsed.data;
  // The name was authenticated with the content; the header must agree with it.
  if (file.device !== expected.device || file.seq !== expected.seq) throw refused('文件头与文件名不符');
  let maxTs = DeviceClock.ZERO;
  const value = (v: unknown): unknown => {
    if (v === null || typeof v === 'number' || typeof v === 'string') return v;
    throw refused('字段值无效');
  };
  const changes = file.changes.map((entry): RowChange => {
    if (
      !Array.isArray(entry) ||
      entry.length !== 4 ||
      typeof entry[1] !== 'string' ||
      typeof entry[3] !== 'object' ||
      entry[3] === null ||
      Array.isArray(entry[3])
    ) {
      throw refused('变更条目格式不对');
    }
    const [ts, table, key] = entry as [unknown, string, unknown];
    if (!isTimestamp(ts)) throw refused('时间戳无效');
    if (ts > maxTs) maxTs = ts;
    if (typeof key !== 'string' || key.length === 0 || key.length > 200) throw refused('行标识无效');
    const cells: Cell[] = Object.entries(entry[3] as Record<string, unknown>).map(([c, v]) => [c, ts, value(v)]);
    return { table, key, cells };
  });
  return { device: file.device, name: file.name, seq: file.seq, at: file.at, changes, maxTs, state: file.state ?? null };
}

/** A change file's plaintext from journal entries. */
export function changesPayload(
  head: FileHeader,
  entries: { ts: string; tbl: string; row: string; vals: string }[],
  state: PublishedState | null = null,
): Buffer {
  const header = state ? { v: 2, kind: 'changes', ...head, state } : { v: 1, kind: 'changes', ...head };
  const parts = [JSON.stringify(header).slice(0, -1), ',"changes":['];
  entries.forEach((e, i) => parts.push(`${i ? ',' : ''}[${JSON.stringify(e.ts)},${JSON.stringify(e.tbl)},${JSON.stringify(e.row)},${e.vals}]`));
  parts.push(']}');
  return Buffer.from(parts.join(''), 'utf8');
}
