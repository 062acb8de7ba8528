// Starts the page's training worker from its own built file. The offline build swaps this module
// for web/src/offline/start-worker.js, which starts it from the page itself.

/** @returns {Worker} */
export function startTrainingWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}
