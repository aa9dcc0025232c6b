// The only strings the preload needs: kept apart from the schemas so the sandboxed preload
// bundle does not pull in zod. Each area lists its commands in its own *.names.ts file.
import { APP_COMMANDS } from './app.names';
import { BACKUP_COMMANDS } from './backups.names';
import { BOOK_COMMANDS } from './books.names';
import { LEDGER_COMMANDS } from './ledger.names';
import { MODEL_COMMANDS } from './models.names';
import { PICTURE_COMMANDS } from './pictures.names';
import { RECURRING_COMMANDS } from './recurring.names';
import { SYNC_COMMANDS } from './sync.names';
import { VOICE_COMMANDS } from './voice.names';

export const INVOKE_CHANNEL = 'suikouji:invoke';
export const EVENT_CHANNEL = 'suikouji:event';

export const COMMAND_NAMES = [
  ...APP_COMMANDS,
  ...LEDGER_COMMANDS,
  ...VOICE_COMMANDS,
  ...BACKUP_COMMANDS,
  ...MODEL_COMMANDS,
  ...SYNC_COMMANDS,
  ...BOOK_COMMANDS,
  ...RECURRING_COMMANDS,
  ...PICTURE_COMMANDS,
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Name of the object the preload puts on `window`. */
export const API_GLOBAL = 'suikouji';
