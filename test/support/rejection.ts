/** The error `promise` rejects with, checked to be a `type`; a resolve or another error fails the test. */
export async function rejection<E extends Error>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  throw new Error(`expected a rejection with ${type.name}`);
}
