// The slide deck: sections from the lesson data, reveal.js around them, widgets mounted as their
// slides are shown.
import 'reveal.js/reveal.css';
import 'katex/dist/katex.min.css';
import '../styles/base.css';
import '../widgets/shared/widgets.css';
import '../widgets/shared/choices.css';
import '../styles/heatmap.css';
import '../styles/deck.css';
import '../styles/deck-figures.css';
import '../widgets/shared/split.css';
import '../styles/deck-narrow.css';
import '../styles/figure-tools.css';
import lesson, { LESSON_KEY, LINK_KEY } from '../lesson.js';
import '../widgets/index.js';
import { startLoading } from '../widgets/shared/engine-loader.js';
import { needsOf } from '../widgets/shared/registry.js';
import { figureViews } from '../share/figure-views.js';
import { afterLoad } from '../after-load.js';
import { fitSlides } from './fit.js';
import { releaseOnEscape } from './keyboard.js';
import { followScreen, isNarrow, markLayout } from './layout.js';
import { reportToLms } from './lms.js';
import { prepareScreenReader, speakSlides } from './screen-reader.js';
import { buildSections } from './sections.js';
import { startDeck } from './setup.js';
import { offerSpeakerNotes } from './speaker-notes.js';
import { manageWidgets } from './widgets.js';
import { offerUpdates } from '../app-updates.js';

// Whether the address names a slide, read before reveal writes the first slide into it.
const linked = location.hash.length > 1;
const root = /** @type {HTMLElement} */ (document.querySelector('.reveal'));
const slidesElement = /** @type {HTMLElement} */ (root.querySelector('.slides'));

document.title = `${lesson.lesson.title} \u00b7 ${lesson.lesson.course} \u00b7 ${lesson.lesson.code}`;
// The title's figure opens on a recording (widgets/translation/record.js) and needs nothing
// loaded. The engine and the files the slides' widgets declare (the word vectors, the trained
// models) start loading once the page has loaded, and are shared by every widget; a slide shown
// before then (a link to it) starts what it needs at once, and its host says when one fails.
const pageLoads = afterLoad().then(() => startLoading(needsOf(figureViews(lesson.slides))));
slidesElement.replaceChildren(...buildSections(document, lesson, LINK_KEY));

const narrow = isNarrow(window);
markLayout(document, narrow);
const status = prepareScreenReader(root);
const { deck, ready } = startDeck(root, { narrow });
speakSlides(deck, status);
// Launched by an LMS (SCORM 1.2), the deck reports progress and the knowledge check to it, and
// keeps the learner's slide and figures there for the next launch.
const lms = reportToLms(window, deck, lesson.slides, {
  linked,
  lesson: LESSON_KEY,
  first: LINK_KEY === null,
});
manageWidgets(deck, lesson.slides, { ...lms?.figures, linkKey: LINK_KEY });
fitSlides(deck);
releaseOnEscape(document);
ready.then(() => {
  followScreen(window, deck);
  offerSpeakerNotes(deck, pageLoads);
});

// The site keeps itself for offline use, and offers a new version when there is one.
offerUpdates({ after: pageLoads });
