// The training worker: one per page, off the main thread, so the page stays responsive however
// long the models train. It loads its own copy of the engine, then hands every message to the
// registry (registry.js), which owns the runs. Until the engine is ready, messages wait; if it
// cannot load, the page is told once, in words meant for the learner. To the page it sends
// `ready`, `failed`, the runs' `progress` reports, and `idle` whenever its loop stops because no
// run has work left (the page's client ignores it; the browser tests wait for it).
import { loadEngine } from '../engine/browser.js';
import { createRegistry } from './registry.js';

/** The worker's global scope: messages in and out. */
const scope =
  /** @type {{ postMessage(message: unknown): void, onmessage: (event: MessageEvent) => void }} */ (
    /** @type {unknown} */ (self)
  );

/** @type {import('./registry.js').Command[]} */
let waiting = [];
/** @type {ReturnType<typeof createRegistry> | null} */
let registry = null;

// A zero-delay turn of the event loop that, unlike a nested setTimeout, is never clamped to 4 ms.
const channel = new MessageChannel();
/** @type {(() => void)[]} */
const turns = [];
channel.port1.onmessage = () => turns.shift()?.();
/** @param {() => void} next */
const defer = (next) => {
  turns.push(next);
  channel.port2.postMessage(0);
};

scope.onmessage = (event) => {
  if (registry) registry.handle(event.data);
  else waiting.push(event.data);
};

loadEngine().then(
  (engine) => {
    registry = createRegistry({
      engine,
      post: (message) => scope.postMessage(message),
      clock: () => performance.now(),
      defer,
      idle: () => scope.postMessage({ type: 'idle' }),
    });
    for (const command of waiting) registry.handle(command);
    waiting = [];
    scope.postMessage({ type: 'ready' });
  },
  (error) => {
    waiting = [];
    scope.postMessage({ type: 'failed', message: error instanceof Error ? error.message : '' });
  },
);
