import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Electron is not installed as a binary here: the shell's Electron-facing code is tested
// against a mock of the few APIs it calls.
const registered = new Map<string, () => void>();
const electron = vi.hoisted(() => ({
  globalShortcut: {
    register: vi.fn((accelerator: string, cb: () => void) => {
      if (accelerator.includes('F12')) return false; // taken by another app
      registered.set(accelerator, cb);
      return true;
    }),
    unregister: vi.fn((accelerator: string) => registered.delete(accelerator)),
  },
  safeStorage: {
    isEncryptionAvailable: vi.fn(() => true),
    getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
    encryptString: vi.fn((s: string) => Buffer.from(`x${s}`)),
    decryptString: vi.fn((b: Buffer) => b.toString().slice(1)),
  },
}));
vi.mock('electron', () => electron);

const { registerPushToTalk } = await import('./hotkey');
const { createSafeStorageBox } = await import('./secret-box');

class FakeHook extends EventEmitter {
  started = false;
  failStart = false;
  start() {
    if (this.failStart) throw new Error('no display');
    this.started = true;
  }
  stop() {
    this.started = false;
  }
}

const codes = { Space: 57, Ctrl: 29, Alt: 56, Shift: 42, Meta: 3675 };
const key = (keycode: number, mods: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }> = {}) => ({
  keycode,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

function sink() {
  const log: string[] = [];
  return { log, sink: { down: () => log.push('down'), up: () => log.push('up'), indicator: (v: boolean) => log.push(v ? 'show' : 'hide') } };
}

beforeEach(() => {
  registered.clear();
  vi.clearAllMocks();
});

describe('global push-to-talk hotkey', () => {
  it('holds with the keyboard hook: press, repeat, release of a modifier', () => {
    const hook = new FakeHook();
    const { log, sink: s } = sink();
    const handle = registerPushToTalk(
      'Ctrl+Alt+Space',
      s,
      () => {},
      () => ({ hook, keyCodes: codes }),
    );
    expect(handle.backend).toBe('hold');
    expect(hook.started).toBe(true);
    hook.emit('keydown', key(57, { ctrlKey: true })); // missing Alt: not ours
    hook.emit('keydown', key(57, { ctrlKey: true, altKey: true }));
    hook.emit('keydown', key(57, { ctrlKey: true, altKey: true }));
    hook.emit('keyup', key(56, { ctrlKey: true }));
    expect(log).toEqual(['show', 'down', 'hide', 'up']);
    handle.dispose();
    expect(hook.started).toBe(false);
    expect(hook.listenerCount('keydown')).toBe(0);
    expect(electron.globalShortcut.register).not.toHaveBeenCalled();
  });

  it('falls back to globalShortcut press-to-start/press-to-stop when the hook cannot start', () => {
    const hook = new FakeHook();
    hook.failStart = true;
    const { log, sink: s } = sink();
    const handle = registerPushToTalk(
      'Ctrl+Alt+Space',
      s,
      () => {},
      () => ({ hook, keyCodes: codes }),
    );
    expect(handle.status).toEqual({ backend: 'toggle', accelerator: 'Ctrl+Alt+Space', reason: 'hook-failed' });
    expect(hook.listenerCount('keydown')).toBe(0);
    registered.get('Ctrl+Alt+Space')!();
    registered.get('Ctrl+Alt+Space')!();
    expect(log).toEqual(['show', 'down', 'hide', 'up']);
    handle.dispose();
    expect(registered.size).toBe(0);
  });

  it('never loads the hook where it cannot work: the press-to-start fallback says why', () => {
    const { sink: s } = sink();
    const handle = registerPushToTalk(
      'Ctrl+Alt+Space',
      s,
      () => {},
      () => ({ unavailable: 'no-display' }),
    );
    expect(handle.status).toEqual({ backend: 'toggle', accelerator: 'Ctrl+Alt+Space', reason: 'no-display' });
    expect(electron.globalShortcut.register).toHaveBeenCalledWith('Ctrl+Alt+Space', expect.any(Function));
    handle.dispose();
  });

  it('reports a taken or invalid accelerator instead of failing silently', () => {
    const messages: string[] = [];
    const { sink: s } = sink();
    const missing = () => ({ unavailable: 'hook-missing' as const });
    expect(registerPushToTalk('Ctrl+F12', s, (m) => messages.push(m), missing).status).toEqual({
      backend: 'none',
      accelerator: 'Ctrl+F12',
      reason: 'taken',
    });
    expect(registerPushToTalk('Space', s, (m) => messages.push(m), missing).status).toEqual({
      backend: 'none',
      accelerator: 'Space',
      reason: 'invalid',
    });
    expect(messages).toEqual(['hotkey "Ctrl+F12" is taken by another application', 'invalid hotkey "Space"']);
  });
});

describe('safeStorage secret box', () => {
  it('round-trips through safeStorage as base64', () => {
    const box = createSafeStorageBox();
    expect(box.available).toBe(true);
    const cipher = box.encrypt('sk-abc');
    expect(cipher).not.toContain('sk-abc');
    expect(box.decrypt(cipher)).toBe('sk-abc');
  });

  it.runIf(process.platform === 'linux')('counts the plain-text Linux fallback as unavailable', () => {
    electron.safeStorage.getSelectedStorageBackend.mockReturnValueOnce('basic_text');
    expect(createSafeStorageBox().available).toBe(false);
  });
});
