import { z } from 'zod';
import type { APP_COMMANDS } from './app.names';

export const appSchemas = {
  appInfo: z.object({}).strict(),
} satisfies Record<(typeof APP_COMMANDS)[number], z.ZodType>;

export interface AppInfo {
  version: string;
  dataDir: string;
  databasePath: string;
}

export interface AppOutputs {
  appInfo: AppInfo;
}
