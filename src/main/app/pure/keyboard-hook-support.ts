import type { HotkeyFallbackReason } from '@shared/ipc/app-settings';

/**
 * Whether the native keyboard hook (uiohook-napi, XRecord on Linux) may be started here.
 * On Linux it aborts the whole process when it cannot open the X display, so it must never
 * be started without one. In a Wayland session it could only see keys sent to XWayland
 * windows, so hold-to-talk would silently miss most presses: the globalShortcut fallback
 * is the honest choice there.
 */
export function keyboardHookBlocker(
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
  socketExists: (path: string) => boolean,
): Extract<HotkeyFallbackReason, 'wayland' | 'no-display'> | null {
  if (platform !== 'linux') return null;
  if (env['XDG_SESSION_TYPE'] === 'wayland') return 'wayland';
  const display = env['DISPLAY']?.trim();
  if (!display) return env['WAYLAND_DISPLAY'] ? 'wayland' : 'no-display';
  // A local display (":0", ":1.0", "unix:0") is a socket we can see without connecting;
  // a TCP display (ssh forwarding) cannot be probed cheaply and is tried as is.
  const local = /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(display);
  if (local && !socketExists(`/tmp/.X11-unix/X${local[1]}`)) return 'no-display';
  return null;
}
