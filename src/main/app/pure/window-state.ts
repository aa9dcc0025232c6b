// Remembered main-window bounds: restored only where they are still on a screen, so a
// window saved on a now-unplugged monitor does not open out of reach.
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const windowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(200).max(20000),
  height: z.number().int().min(200).max(20000),
  maximized: z.boolean().default(false),
});

export type WindowState = z.output<typeof windowStateSchema>;

export const MIN_VISIBLE_PX = 80;

function overlap(a: Rect, b: Rect): { w: number; h: number } {
  return {
    w: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    h: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/**
 * The saved state when at least MIN_VISIBLE_PX of its title area shows on some display's
 * work area, shrunk to fit that display; null when it must open at the default place.
 */
export function restoreWindowState(saved: unknown, workAreas: readonly Rect[], min: { width: number; height: number }): WindowState | null {
  const parsed = windowStateSchema.safeParse(saved);
  if (!parsed.success) return null;
  const state = parsed.data;
  const titleBar: Rect = { x: state.x, y: state.y, width: state.width, height: 40 };
  const area = workAreas.find((wa) => {
    const o = overlap(titleBar, wa);
    return o.w >= MIN_VISIBLE_PX && o.h > 0;
  });
  if (!area) return null;
  return {
    ...state,
    width: Math.max(min.width, Math.min(state.width, area.width)),
    height: Math.max(min.height, Math.min(state.height, area.height)),
  };
}

/** Top-right corner of the work area, for the recording indicator. */
export function indicatorPosition(workArea: Rect, size: { width: number; height: number }, margin = 16): { x: number; y: number } {
  return { x: workArea.x + workArea.width - size.width - margin, y: workArea.y + margin };
}

/** Centered in the upper third, where a quick-entry box is expected. */
export function quickEntryPosition(workArea: Rect, size: { width: number; height: number }): { x: number; y: number } {
  return {
    x: Math.round(workArea.x + (workArea.width - size.width) / 2),
    y: Math.round(workArea.y + workArea.height / 4 - size.height / 4),
  };
}
