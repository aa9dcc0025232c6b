// The catch-up of test/recurring-crash.test.ts: opens the ledger with its clock on the day
// given, reports `ready`, catches up every due recurring occurrence, then reports how many
// rows it made — unless it is killed first.
//   node --import tsx test/support/recurring-crash-child.ts <ledger path> <YYYY-MM-DD>
import { writeSync } from 'node:fs';
import { toZonedNow } from '@shared/time';
import { openLedger } from '@core/ledger/index';

const [path, day] = process.argv.slice(2);
if (!path || !day) throw new Error('usage: recurring-crash-child.ts <ledger path> <YYYY-MM-DD>');

const now = toZonedNow(`${day}T09:00:00+08:00`);
const ledger = openLedger({ path, now: () => now });
writeSync(1, 'ready\n');
const { saved } = ledger.catchUpRecurring(now);
// Synchronous, after the commit: a catch-up reported here must survive the kill.
writeSync(1, `saved ${saved.length}\n`);
ledger.close();
