// The installable lesson: registers the service worker the build writes (vite-plugin-pwa, in
// vite.config.js), which precaches every page and file of the site on the first visit, so that
// the lesson opens and works with the network gone. A new version never mixes with the old: its
// worker fetches all of its files beside the old ones, then waits; the page offers to reload into
// it, and until the learner says so (or closes every tab of the lesson) the old files keep
// serving. The single-file lesson has no service worker: the offline build swaps this module for
// web/src/offline/app-updates.js.
import { registerSW } from 'virtual:pwa-register';
import './styles/app-updates.css';

const READY = 'A new version of the lesson is ready.';
const RELOAD = 'Reload for the new version';
const LATER = 'Not now';

/**
 * Registers the service worker, when the page is served (the dev server of npm start has none),
 * and shows the offer to reload when a new version has been fetched. It registers once the page
 * has loaded and `after` has settled: the worker's first visit downloads the whole site (about
 * 6 MB), which must not compete with the files the page's first figure is waiting for.
 * @param {{ doc?: Document, after?: Promise<unknown> }} [options] after: the page's own loads
 */
export async function offerUpdates({ doc = document, after = Promise.resolve() } = {}) {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const loaded =
    doc.readyState === 'complete'
      ? Promise.resolve()
      : new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  await Promise.allSettled([after, loaded]);
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => showOffer(doc, () => update(true)),
    onRegisterError: (error) => console.warn('The lesson cannot be kept for offline use:', error),
  });
}

/**
 * @param {Document} doc
 * @param {() => void} reload
 */
function showOffer(doc, reload) {
  if (doc.querySelector('.app-update')) return;
  const bar = doc.createElement('div');
  bar.className = 'app-update';
  bar.setAttribute('role', 'status');
  const text = doc.createElement('span');
  text.textContent = READY;
  const now = doc.createElement('button');
  now.type = 'button';
  now.textContent = RELOAD;
  now.addEventListener('click', reload);
  const later = doc.createElement('button');
  later.type = 'button';
  later.textContent = LATER;
  later.addEventListener('click', () => bar.remove());
  bar.append(text, now, later);
  doc.body.append(bar);
}
