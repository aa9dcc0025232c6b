// Long work runs on the main thread in slices: a 10 000-line bill takes a few hundred ms to
// read, and the window must keep answering meanwhile. Call the pacer inside a loop; it yields
// to the event loop once a slice has run long enough.
/** Resolves on the event loop's next turn, after the I/O and timers already waiting. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export type Pacer = () => Promise<void> | undefined;

export function pacer(sliceMs = 4): Pacer {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
