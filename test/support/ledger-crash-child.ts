// The writer of test/ledger-crash.test.ts: saves batches through the project's ledger in a
// loop until it is killed, and reports each batch on stdout only once saveBatch returned.
// Every row of batch `<prefix>.<n>.<size>` carries that tag as its description, so a reader
// can tell a whole batch (size rows) from a partial one.
//   node --import tsx test/support/ledger-crash-child.ts <ledger path> <prefix>
import { writeSync } from 'node:fs';
import type { ParseResult } from '@shared/domain';
import { openLedger } from '@core/ledger/index';

const [path, prefix] = process.argv.slice(2);
if (!path || !prefix) throw new Error('usage: ledger-crash-child.ts <ledger path> <prefix>');

const ledger = openLedger({ path });
writeSync(1, 'ready\n');
for (let n = 0; ; n++) {
  // 1–12 rows; every 25th batch is a large one, so some kills land in a long commit or a checkpoint.
  const size = n % 25 === 24 ? 200 : 1 + (n % 12);
  const tag = `${prefix}.${n}.${size}`;
  const batch: ParseResult[] = Array.from({ length: size }, (_, i) => ({
    amount: 1 + i,
    type: 'EXPENSE',
    category: '餐饮',
    description: tag,
    date: null,
    account: null,
    confidence: 1,
    source: 'local',
  }));
  ledger.saveBatch(batch, { drafts: null });
  // Synchronous, after the commit: a batch reported here must survive the kill.
  writeSync(1, `saved ${tag}\n`);
}
