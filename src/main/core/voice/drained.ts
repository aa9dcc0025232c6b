/**
 * Resolves once a promise chain that may grow while we wait has settled: `current()` is read
 * again after each wait, so work queued meanwhile is waited for too.
 */
export async function drained(current: () => Promise<unknown>): Promise<void> {
  let tail: Promise<unknown>;
  do {
    tail = current();
    await tail;
  } while (tail !== current());
}
