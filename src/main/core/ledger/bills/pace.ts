// Long reads run on the main thread in slices: a 10 000-line bill takes a few hundred ms to
// read, and the window must keep answering meanwhile. Call the pacer inside a loop; it yields
// to the event loop once a slice has run long enough.
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

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
