// Electron accelerators ("Ctrl+Alt+Space") matched against raw key events from a keyboard
// hook, which reports a key code and modifier flags rather than an accelerator string.

export interface ParsedAccelerator {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  meta: boolean;
  /** Normalised key name: A–Z, 0–9, F1–F24, Space, Enter, … */
  key: string;
}

export interface RawKeyEvent {
  keycode: number;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

const KEY_ALIASES: Record<string, string> = {
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
  esc: 'Escape',
  escape: 'Escape',
  return: 'Enter',
  enter: 'Enter',
  space: 'Space',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  insert: 'Insert',
  home: 'Home',
  end: 'End',
  pageup: 'PageUp',
  pagedown: 'PageDown',
};

/** Returns null for anything without a modifier or with an unknown part. */
export function parseAccelerator(accelerator: string, platform: NodeJS.Platform = process.platform): ParsedAccelerator | null {
  const parts = accelerator
    .split('+')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length < 2) return null;
  const parsed: ParsedAccelerator = { ctrl: false, alt: false, shift: false, meta: false, key: '' };
  for (const part of parts.slice(0, -1)) {
    switch (part.toLowerCase()) {
      case 'ctrl':
      case 'control':
        parsed.ctrl = true;
        break;
      case 'alt':
      case 'option':
      case 'altgr':
        parsed.alt = true;
        break;
      case 'shift':
        parsed.shift = true;
        break;
      case 'super':
      case 'meta':
      case 'cmd':
      case 'command':
        parsed.meta = true;
        break;
      case 'cmdorctrl':
      case 'commandorcontrol':
        if (platform === 'darwin') parsed.meta = true;
        else parsed.ctrl = true;
        break;
      default:
        return null;
    }
  }
  const last = parts.at(-1)!;
  const alias = KEY_ALIASES[last.toLowerCase()];
  if (alias) parsed.key = alias;
  else if (/^[a-z0-9]$/i.test(last)) parsed.key = last.toUpperCase();
  else if (/^f([1-9]|1[0-9]|2[0-4])$/i.test(last)) parsed.key = last.toUpperCase();
  else return null;
  return parsed;
}

/** The key is the accelerator's main key and exactly its modifiers are held. */
export function matchesAccelerator(event: RawKeyEvent, accelerator: ParsedAccelerator, keyCodes: Readonly<Record<string, number>>): boolean {
  return (
    keyCodes[accelerator.key] === event.keycode &&
    event.ctrlKey === accelerator.ctrl &&
    event.altKey === accelerator.alt &&
    event.shiftKey === accelerator.shift &&
    event.metaKey === accelerator.meta
  );
}

/** Key codes of the modifiers, so releasing any of them also ends a hold. */
export function isModifierRelease(keycode: number, keyCodes: Readonly<Record<string, number>>): boolean {
  return ['Ctrl', 'CtrlRight', 'Alt', 'AltRight', 'Shift', 'ShiftRight', 'Meta', 'MetaRight'].some((name) => keyCodes[name] === keycode);
}
