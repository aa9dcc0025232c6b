import type { AppInfo, WindowAction } from '@shared/ipc/app';
import type { APP_COMMANDS } from '@shared/ipc/app.names';
import type { HotkeyStatus, Microphone, SettingsView } from '@shared/ipc/app-settings';
import { SettingsError, testConnection, type ConnectionTestDeps, type SettingsStore } from '../settings/index';
import { CommandError, type AreaHandlers } from './types';

export interface AppHandlerDeps {
  appInfo: () => AppInfo;
  /** Absent in a core built without settings (old tests); the commands then say so. */
  settings?: SettingsStore;
  connectionTest?: ConnectionTestDeps;
  /** The microphones PortAudio sees; absent where audio is not wired. */
  listMicrophones?: () => Promise<Microphone[]>;
  /** The shell's window control; the browser bridge records instead. */
  windowAction?: (action: WindowAction) => void;
  /** The shell's hotkey status; absent where no shell registers a hotkey (bridge, tools). */
  hotkeyStatus?: () => HotkeyStatus | null;
}

type AppCommand = (typeof APP_COMMANDS)[number];

export function createAppHandlers(deps: AppHandlerDeps): AreaHandlers<AppCommand> {
  const settings = (): SettingsStore => {
    if (!deps.settings) throw new CommandError('settings_unavailable', '设置暂不可用，请重启应用后再试。');
    return deps.settings;
  };
  const withHotkey = (view: SettingsView): SettingsView => {
    const hotkey = deps.hotkeyStatus?.();
    return hotkey ? { ...view, hotkey } : view;
  };
  return {
    appInfo: () => deps.appInfo(),
    settingsGet: () => withHotkey(settings().view()),
    settingsSave: (input) => {
      try {
        return withHotkey(settings().save(input));
      } catch (err) {
        if (err instanceof SettingsError) throw new CommandError(err.code, err.message);
        throw err;
      }
    },
    settingsTest: (input) => {
      const preview = settings().preview(input);
      return testConnection(preview.settings, preview.secret, deps.connectionTest);
    },
    listMicrophones: async () => {
      if (!deps.listMicrophones) return [];
      try {
        return await deps.listMicrophones();
      } catch {
        throw new CommandError('audio_unavailable', '无法读取麦克风列表：请确认已连接麦克风，并允许随口记使用它。');
      }
    },
    windowAction: (input) => {
      deps.windowAction?.(input);
      return null;
    },
  };
}
