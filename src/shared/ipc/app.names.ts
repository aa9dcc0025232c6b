/** App-level commands (info, settings, microphones, window control). */
export const APP_COMMANDS = ['appInfo', 'settingsGet', 'settingsSave', 'settingsTest', 'listMicrophones', 'windowAction'] as const;
