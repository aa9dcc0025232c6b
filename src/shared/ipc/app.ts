import { z } from 'zod';
import type { APP_COMMANDS } from './app.names';
import { settingsSaveSchema, type ConnectionTestResult, type Microphone, type SettingsView } from './app-settings';

/**
 * The main window's pages. `new` is not a page: it opens the 记一笔 form over the page the
 * window was showing (the tray menu and the app menu's Ctrl+N go there).
 */
export const MAIN_ROUTES = ['home', 'session', 'ledger', 'stats', 'budgets', 'recurring', 'debts', 'categories', 'settings', 'new'] as const;
export type MainRoute = (typeof MAIN_ROUTES)[number];

/**
 * What a page may ask of the shell about windows. The quick-entry window closes itself
 * after a save or Esc; any page may bring the main window (optionally at a route) forward.
 */
export const windowActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('closeQuickEntry') }).strict(),
  z.object({ action: z.literal('showMain'), route: z.enum(MAIN_ROUTES).optional() }).strict(),
  /** Restarts the app (a staged backup restore is applied at the next start). */
  z.object({ action: z.literal('relaunch') }).strict(),
]);

export type WindowAction = z.output<typeof windowActionSchema>;

export const appSchemas = {
  appInfo: z.object({}).strict(),
  settingsGet: z.object({}).strict(),
  settingsSave: settingsSaveSchema,
  /** Tests the connection with the given unsaved values over the stored ones. */
  settingsTest: settingsSaveSchema,
  listMicrophones: z.object({}).strict(),
  windowAction: windowActionSchema,
} satisfies Record<(typeof APP_COMMANDS)[number], z.ZodType>;

export interface AppInfo {
  version: string;
  dataDir: string;
  databasePath: string;
  /** The ledger file cannot be written (permissions): the windows show it read-only. */
  readOnly: boolean;
}

export interface AppOutputs {
  appInfo: AppInfo;
  settingsGet: SettingsView;
  settingsSave: SettingsView;
  settingsTest: ConnectionTestResult;
  listMicrophones: Microphone[];
  windowAction: null;
}

export * from './app-settings';
