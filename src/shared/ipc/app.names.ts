/** App-level commands (info, settings). */
export const APP_COMMANDS = ['appInfo'] as const;
