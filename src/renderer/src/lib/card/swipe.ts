// Swipe on a draft row: right confirms, left cancels (design Decision 12). The threshold
// scales with the row so a wide window does not need a longer drag than is comfortable,
// and a mostly vertical drag is a scroll, never a decision.

export const SWIPE_MIN_PX = 60;
export const SWIPE_MAX_PX = 140;
export const SWIPE_WIDTH_RATIO = 0.3;

export type SwipeOutcome = 'confirm' | 'cancel' | null;

export function swipeThreshold(width: number): number {
  const scaled = Number.isFinite(width) && width > 0 ? width * SWIPE_WIDTH_RATIO : 0;
  return Math.min(SWIPE_MAX_PX, Math.max(SWIPE_MIN_PX, scaled));
}

export function swipeOutcome(dx: number, dy: number, width: number): SwipeOutcome {
  if (Math.abs(dy) > Math.abs(dx)) return null;
  const threshold = swipeThreshold(width);
  if (dx >= threshold) return 'confirm';
  if (dx <= -threshold) return 'cancel';
  return null;
}

/** Follows one pointer from down to up; `offset` is how far the row should be drawn. */
export class SwipeTracker {
  #start: { x: number; y: number; pointerId: number } | null = null;
  #dx = 0;
  #dy = 0;

  get dragging(): boolean {
    return this.#start !== null;
  }

  begin(pointerId: number, x: number, y: number): void {
    this.#start = { x, y, pointerId };
    this.#dx = 0;
    this.#dy = 0;
  }

  /** Returns the horizontal offset to draw, or null when this pointer is not ours. */
  move(pointerId: number, x: number, y: number): number | null {
    if (!this.#start || this.#start.pointerId !== pointerId) return null;
    this.#dx = x - this.#start.x;
    this.#dy = y - this.#start.y;
    return Math.abs(this.#dy) > Math.abs(this.#dx) ? 0 : this.#dx;
  }

  end(pointerId: number, x: number, y: number, width: number): SwipeOutcome {
    if (!this.#start || this.#start.pointerId !== pointerId) return null;
    this.move(pointerId, x, y);
    this.#start = null;
    return swipeOutcome(this.#dx, this.#dy, width);
  }

  cancel(): void {
    this.#start = null;
  }
}
