// The single-file lesson's training worker: its code is carried in the page (Vite's inline
// worker, started from a blob: address, since a worker file does not load from file://), and it
// gets the engine's bytes in its first message (asset-source.js).
import TrainingWorker from '../train/worker.js?worker&inline';
import { ENGINE_ASSET, ENGINE_MESSAGE, embeddedBytes } from './asset-source.js';

/** @returns {Worker} */
export function startTrainingWorker() {
  const worker = new TrainingWorker();
  worker.postMessage({ type: ENGINE_MESSAGE, bytes: embeddedBytes(ENGINE_ASSET) });
  return worker;
}
