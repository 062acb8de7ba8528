// The deck in an LMS: when a SCORM 1.2 API is found around the page (web/src/lms/scorm.js), the
// knowledge check's answers, the summary slide and leaving the page are reported to it. Without
// one, this does nothing at all.
import { ANSWER_EVENT } from '../quiz/answer-event.js';
import { createReporter, findApi } from '../lms/scorm.js';

/** The slide whose showing completes the lesson: the recap, slides/12-summary.md. */
export const SUMMARY_SLIDE = 'summary';

/**
 * @param {Window} win
 * @param {import('reveal.js').default} deck
 * @param {HTMLElement} root the deck's element, inside which the knowledge check answers
 * @returns {import('../lms/scorm.js').Reporter | null} null outside an LMS
 */
export function reportToLms(win, deck, root) {
  const api = findApi(win);
  if (!api) return null;
  const reporter = createReporter(api);
  if (!reporter.start()) return null;
  root.addEventListener(ANSWER_EVENT, (event) => {
    reporter.answer(/** @type {CustomEvent} */ (event).detail);
  });
  /** @param {{ currentSlide?: Element }} event */
  const shown = (event) => {
    if (!deck.isPrintView() && event.currentSlide?.id === SUMMARY_SLIDE) reporter.complete();
  };
  deck.on('ready', shown);
  deck.on('slidechanged', shown);
  // pagehide comes on every way of leaving (closing, navigating, the LMS replacing the frame),
  // where unload is unreliable and keeps the page out of the back-forward cache.
  win.addEventListener('pagehide', () => reporter.finish());
  return reporter;
}
