// The only strings the preload needs: kept apart from ipc.ts so the sandboxed preload
// bundle does not pull in zod.

export const INVOKE_CHANNEL = 'suikouji:invoke';
export const EVENT_CHANNEL = 'suikouji:event';

export const COMMAND_NAMES = ['appInfo', 'listTransactions', 'searchTransactions', 'monthSummary'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** Name of the object the preload puts on `window`. */
export const API_GLOBAL = 'suikouji';
