import { globalShortcut } from 'electron';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { HotkeyFallbackReason, HotkeyStatus } from '@shared/ipc/app-settings';
import { systemClock } from '@shared/clock';
import { isModifierRelease, matchesAccelerator, parseAccelerator, type RawKeyEvent } from './pure/accelerator';
import { PushToTalkHotkey, type HotkeySink } from './pure/hotkey-state';
import { keyboardHookBlocker } from './pure/keyboard-hook-support';

export interface KeyboardHook {
  on(event: 'keydown' | 'keyup', listener: (e: RawKeyEvent) => void): unknown;
  removeAllListeners(event?: string): unknown;
  start(): void;
  stop(): void;
}

type Log = (m: string, e?: unknown) => void;

export type HookLoad =
  | { hook: KeyboardHook; keyCodes: Record<string, number> }
  | { unavailable: Extract<HotkeyFallbackReason, 'wayland' | 'no-display' | 'hook-missing'> };
export type HookLoader = (log: Log) => HookLoad;

/**
 * uiohook-napi sees key releases, which hold-to-talk needs. It is a native module that may
 * be missing, and on Linux it aborts the process without an X display, so it is loaded only
 * where it can work; everywhere else the globalShortcut press-to-start fallback is used.
 */
function loadHook(log: Log): HookLoad {
  const blocker = keyboardHookBlocker(process.platform, process.env, existsSync);
  if (blocker) return { unavailable: blocker };
  try {
    // Not a module-level `require`: the ESM bundle declares one of its own at the top.
    const mod = createRequire(import.meta.url)('uiohook-napi') as { uIOhook: KeyboardHook; UiohookKey: Record<string, number> };
    return { hook: mod.uIOhook, keyCodes: mod.UiohookKey };
  } catch (err) {
    log('uiohook-napi unavailable; the hotkey falls back to press-to-start/press-to-stop', err);
    return { unavailable: 'hook-missing' };
  }
}

export interface GlobalHotkey {
  readonly backend: HotkeyStatus['backend'];
  readonly status: HotkeyStatus;
  machine: PushToTalkHotkey | null;
  dispose(): void;
}

function noHotkey(accelerator: string, reason: HotkeyFallbackReason): GlobalHotkey {
  return { backend: 'none', status: { backend: 'none', accelerator, reason }, machine: null, dispose() {} };
}

/** Registers the push-to-talk accelerator; returns a handle that unregisters it. */
export function registerPushToTalk(accelerator: string, sink: HotkeySink, log: Log, loadKeyboardHook: HookLoader = loadHook): GlobalHotkey {
  const parsed = parseAccelerator(accelerator);
  if (!parsed) {
    log(`invalid hotkey "${accelerator}"`);
    return noHotkey(accelerator, 'invalid');
  }
  const loaded = loadKeyboardHook(log);
  let reason: HotkeyFallbackReason;
  if ('hook' in loaded) {
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
        status: { backend: 'hold', accelerator },
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
      reason = 'hook-failed';
    }
  } else {
    reason = loaded.unavailable;
  }
  const machine = new PushToTalkHotkey('toggle', sink, systemClock);
  if (!globalShortcut.register(accelerator, () => machine.press())) {
    log(`hotkey "${accelerator}" is taken by another application`);
    return noHotkey(accelerator, 'taken');
  }
  return {
    backend: 'toggle',
    status: { backend: 'toggle', accelerator, reason },
    machine,
    dispose() {
      machine.reset();
      globalShortcut.unregister(accelerator);
    },
  };
}
