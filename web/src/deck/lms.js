// The deck in an LMS: when a SCORM 1.2 API is found around the page (web/src/lms/scorm.js), the
// knowledge check's answers (from its state, web/src/quiz/answer.js), the summary slide and
// leaving the page are reported to it, and the
// slide and figures the learner leaves are kept there (web/src/lms/resume.js) and restored at the
// next launch. Without one, this does nothing at all.
import { answerFollower } from '../quiz/answer.js';
import { decodeFigures, decodeLocation, encodeFigures, LOCATION_MAX } from '../lms/resume.js';
import { createReporter, findApi, launchedLesson } from '../lms/scorm.js';
import { viewsOf } from '../share/figure-views.js';

/** The slide whose showing completes a lesson: its recap (slides/<key>/12-summary.md). */
export const SUMMARY_SLIDE = 'summary';

/** How long after the last change the LMS is told the learner's place, in ms. */
const KEEP_MS = 1000;

/**
 * @typedef {object} LmsPlace
 * @property {import('../lms/scorm.js').Reporter} reporter what talks to the LMS
 * @property {import('./widgets.js').FigureOptions} figures for manageWidgets: the figures kept
 *   from the last launch, and what keeps them up to date
 */

/**
 * @param {Window} win
 * @param {import('reveal.js').default} deck
 * @param {{ id: string, widget?: Parameters<typeof viewsOf>[0] }[]} slides
 * @param {{ linked?: boolean, lesson?: string, first?: boolean }} [launch] linked: the address
 *   named a slide when the page opened (read before reveal writes the first slide into it): that
 *   slide wins over the LMS's; lesson: the key of the lesson shown, and first: whether it is the
 *   site's first lesson (the one an address naming none shows). The LMS's SCO is this lesson's
 *   when its launch data, or else the address, names this lesson (or none, for the first);
 *   another lesson's is left as it is
 * @returns {LmsPlace | null} null outside an LMS
 */
export function reportToLms(win, deck, slides, launch = {}) {
  const api = findApi(win);
  if (!api) return null;
  const { lesson = null, first = true } = launch;
  const reporter = createReporter(api, {
    ours(launchData) {
      const named = launchedLesson(launchData, win.location?.search ?? '');
      return named === null ? first : named === lesson;
    },
  });
  if (!reporter.start()) return null;
  const followAnswers = answerFollower((answer) => reporter.answer(answer));
  /** @param {{ currentSlide?: Element }} event */
  const shown = (event) => {
    if (!deck.isPrintView() && event.currentSlide?.id === SUMMARY_SLIDE) reporter.complete();
  };
  deck.on('ready', shown);
  deck.on('slidechanged', shown);

  const ids = slides.map((slide) => slide.id);
  const saved = reporter.saved();
  const views = new Map(
    slides.flatMap((slide) =>
      slide.widget ? [[slide.id, viewsOf(slide.widget).map((view) => view.type)]] : [],
    ),
  );
  const resumed = decodeFigures(saved.data, views);
  // What the LMS is told: until the learner changes a figure, the figures as they were resumed.
  const place = {
    slide: '',
    figures: encodeFigures(
      [...resumed].map(([id, { view, settings }]) => [
        id,
        { view: view === views.get(id)?.[0] ? undefined : view, settings },
      ]),
    ),
  };
  let timer = 0;
  const keep = () => {
    clearTimeout(timer);
    timer = 0;
    reporter.keep(place.slide.slice(0, LOCATION_MAX), place.figures);
  };
  const keepSoon = () => {
    clearTimeout(timer);
    timer = win.setTimeout(keep, KEEP_MS);
  };
  // Back where the last launch left off, unless the address names a slide.
  const left = decodeLocation(saved.location, ids);
  deck.on('ready', (/** @type {{ currentSlide?: Element }} */ event) => {
    place.slide = event.currentSlide?.id ?? '';
    const section = deck.getSlides().find((slide) => slide.id === left);
    if (!section || deck.isPrintView() || launch.linked) return;
    const { h, v } = deck.getIndices(section);
    deck.slide(h, v);
  });
  deck.on('slidechanged', (/** @type {{ currentSlide?: Element }} */ event) => {
    place.slide = event.currentSlide?.id ?? '';
    keepSoon();
  });
  // pagehide comes on every way of leaving (closing, navigating, the LMS replacing the frame),
  // where unload is unreliable and keeps the page out of the back-forward cache.
  win.addEventListener('pagehide', () => {
    if (timer) keep();
    reporter.finish();
  });
  return {
    reporter,
    figures: {
      resumed,
      onChange(figures, slide) {
        place.figures = encodeFigures(figures, slide);
        keepSoon();
      },
      onState(slide, type, state) {
        if (type === 'knowledge-check') followAnswers(state);
      },
    },
  };
}
