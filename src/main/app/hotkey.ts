import { globalShortcut } from 'electron';
import { createRequire } from 'node:module';
import { systemClock } from '../core/clock';
import { isModifierRelease, matchesAccelerator, parseAccelerator, type RawKeyEvent } from './pure/accelerator';
import { PushToTalkHotkey, type HotkeySink } from './pure/hotkey-state';

export interface KeyboardHook {
  on(event: 'keydown' | 'keyup', listener: (e: RawKeyEvent) => void): unknown;
  removeAllListeners(event?: string): unknown;
  start(): void;
  stop(): void;
}

const require = createRequire(import.meta.url);

/**
 * uiohook-napi sees key releases, which hold-to-talk needs; it is a native module that
 * may be missing or refuse to start (Wayland without XWayland, no accessibility permission
 * on macOS), and then the globalShortcut press-to-start/press-to-stop fallback is used.
 */
function loadHook(log: (m: string, e?: unknown) => void): { hook: KeyboardHook; keyCodes: Record<string, number> } | null {
  if (process.platform === 'linux' && process.env['XDG_SESSION_TYPE'] === 'wayland') return null;
  try {
    const mod = require('uiohook-napi') as { uIOhook: KeyboardHook; UiohookKey: Record<string, number> };
    return { hook: mod.uIOhook, keyCodes: mod.UiohookKey };
  } catch (err) {
    log('uiohook-napi unavailable; the hotkey falls back to press-to-start/press-to-stop', err);
    return null;
  }
}

export type HookLoader = (log: (m: string, e?: unknown) => void) => { hook: KeyboardHook; keyCodes: Record<string, number> } | null;

export interface GlobalHotkey {
  readonly backend: 'hold' | 'toggle' | 'none';
  machine: PushToTalkHotkey | null;
  dispose(): void;
}

/** Registers the push-to-talk accelerator; returns a handle that unregisters it. */
export function registerPushToTalk(
  accelerator: string,
  sink: HotkeySink,
  log: (m: string, e?: unknown) => void,
  loadKeyboardHook: HookLoader = loadHook,
): GlobalHotkey {
  const parsed = parseAccelerator(accelerator);
  if (!parsed) {
    log(`invalid hotkey "${accelerator}"`);
    return { backend: 'none', machine: null, dispose() {} };
  }
  const loaded = loadKeyboardHook(log);
  if (loaded) {
    const machine = new PushToTalkHotkey('hold', sink, systemClock);
    const { hook, keyCodes } = loaded;
    try {
      hook.on('keydown', (e) => {
        if (matchesAccelerator(e, parsed, keyCodes)) machine.keyDown();
      });
      hook.on('keyup', (e) => {
        if (machine.phase !== 'recording') return;
        if (e.keycode === keyCodes[parsed.key] || isModifierRelease(e.keycode, keyCodes)) machine.keyUp();
      });
      hook.start();
      return {
        backend: 'hold',
        machine,
        dispose() {
          machine.reset();
          hook.removeAllListeners('keydown');
          hook.removeAllListeners('keyup');
          hook.stop();
        },
      };
    } catch (err) {
      hook.removeAllListeners('keydown');
      hook.removeAllListeners('keyup');
      log('keyboard hook failed to start; using globalShortcut', err);
    }
  }
  const machine = new PushToTalkHotkey('toggle', sink, systemClock);
  if (!globalShortcut.register(accelerator, () => machine.press())) {
    log(`hotkey "${accelerator}" is taken by another application`);
    return { backend: 'none', machine: null, dispose() {} };
  }
  return {
    backend: 'toggle',
    machine,
    dispose() {
      machine.reset();
      globalShortcut.unregister(accelerator);
    },
  };
}
