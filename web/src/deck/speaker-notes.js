// The speaker view (S): reveal's notes plugin, which brings a markdown parser that the first slide
// does not need, is fetched in idle time a little after the page's own loads have settled, or at
// once when S is pressed before that. Once registered, the plugin binds S itself and reconnects a
// speaker view left open across a reload, as it would from the start. It is registered while the
// address's query holds only `receiver` (address.js): a link cannot open the view (?notes).
import { PREVIEW_PARAM, withoutQuery } from './address.js';

const NOTES_KEY = { keyCode: 83, key: 'S', description: 'Speaker notes view' };
// How long after the page's own loads the plugin waits before it is fetched unasked.
const SETTLE_MS = 2000;

/**
 * @param {Pick<import('reveal.js').default, 'addKeyBinding' | 'registerPlugin' | 'getPlugin'>} deck
 *   initialised
 * @param {Promise<unknown>} after the page's own loads; the plugin is fetched once they settle
 * @param {{ idle?: (task: () => void) => void, load?: () => Promise<{ default: any }>,
 *   win?: Window }} [options] idle: runs a task when the browser has time; load: imports the
 *   plugin; win: the page's window, whose query the plugin must not read (none outside a page)
 */
export function offerSpeakerNotes(deck, after, options = {}) {
  const {
    idle = whenIdle,
    load = () => import('reveal.js/plugin/notes'),
    win = globalThis.window,
  } = options;
  /** @type {Promise<{ open: () => void } | null> | null} */
  let plugin = null;
  const register = () =>
    (plugin ??= load().then(
      ({ default: Notes }) => {
        const add = () => deck.registerPlugin(Notes);
        if (win) withoutQuery(win, [PREVIEW_PARAM], add);
        else add();
        return deck.getPlugin('notes');
      },
      // Without the plugin (a failed download) S does nothing, as in a deck without notes.
      () => null,
    ));
  deck.addKeyBinding(NOTES_KEY, () => {
    register().then((notes) => notes?.open());
  });
  const later = () => idle(register);
  after.then(later, later);
}

/**
 * Runs the task in idle time a little after now: the first figure is still being drawn when the
 * page's files have arrived, and idle moments between its steps are not the time for it.
 * @param {() => void} task
 */
function whenIdle(task) {
  setTimeout(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 2000 });
    else task();
  }, SETTLE_MS);
}
