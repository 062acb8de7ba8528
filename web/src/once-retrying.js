// One start shared by every caller, tried again after a failure: the pattern of the page's loads
// (the engine's WebAssembly, the word vectors, the model's files), which many widgets ask for.

/**
 * A function that runs `start` on its first call and hands every later call the same promise,
 * until that promise rejects: the call after a failure runs `start` again.
 * @template T
 * @param {() => Promise<T>} start
 * @param {(error: unknown) => unknown} [reason] what a failure rejects with (default: its error)
 * @returns {() => Promise<T>}
 */
export function onceRetrying(start, reason = (error) => error) {
  /** @type {Promise<T> | undefined} */
  let pending;
  return () => {
    pending ??= start().catch((error) => {
      pending = undefined;
      throw reason(error);
    });
    return pending;
  };
}
