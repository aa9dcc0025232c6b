// The sync process test/sync-kill.test.ts kills: tools/sync.ts's own command (runSyncCommand,
// exactly what `npm run sync` runs) in a child. It says "ready" once its code is loaded and
// starts the round when the test writes "go" — so the test can start the next child while the
// current one runs, and time its SIGKILL from the start of the round, not the child's start-up.
//   node --import tsx test/support/sync-kill-child.ts --db PATH --remote URL [--user NAME] [--device-name NAME]
import { writeSync } from 'node:fs';
import { runSyncCommand } from '../../tools/sync';

writeSync(1, 'ready\n');
await new Promise<void>((resolve) => {
  process.stdin.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('go')) resolve();
  });
});
process.stdin.pause();
process.exitCode = await runSyncCommand(process.argv.slice(2), {
  out: (line) => writeSync(1, `${line}\n`),
  err: (line) => writeSync(2, `${line}\n`),
  env: process.env,
});
process.stdin.destroy();
