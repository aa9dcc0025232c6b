/** Sync commands (settings → 同步). */
export const SYNC_COMMANDS = ['syncStatus', 'syncTest', 'syncConfigure', 'syncNow', 'syncStop', 'syncChooseFolder'] as const;
