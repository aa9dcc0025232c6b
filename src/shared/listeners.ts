/** Stops a subscription; calling it again does nothing. */
export type Unsubscribe = () => void;

/**
 * A minimal typed event hub. A throwing listener must not break the loop that emitted the
 * event (audio, a socket, a settings save), so listener errors go to `onListenerError`
 * instead of propagating.
 */
export class Listeners<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  private readonly table = new Map<keyof Events, Set<Events[keyof Events]>>();

  constructor(private readonly onListenerError: (error: unknown) => void = (e) => console.error(e)) {}

  on<E extends keyof Events>(event: E, listener: Events[E]): Unsubscribe {
    let set = this.table.get(event);
    if (!set) this.table.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    const set = this.table.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (...a: Parameters<Events[E]>) => void)(...args);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  /** How many listeners `event` has (tests check that a subscription was dropped). */
  count(event: keyof Events): number {
    return this.table.get(event)?.size ?? 0;
  }

  clear(): void {
    this.table.clear();
  }
}
