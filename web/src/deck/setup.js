// reveal.js for the lesson: fixed 1280 x 720 slides scaled to the screen, addressable as
// index.html#/<slide id>, with keyboard, touch, overview, progress bar and the print view
// (?print-pdf); the speaker notes (S) are added once the deck is up (speaker-notes.js). The
// slide counter and the running header are part of each slide. reveal reads no option from the
// address: only what address.js lets through.
import Reveal from 'reveal.js';
import { deckRequest, keepLinkedHash, requestedOptions, withoutQuery } from './address.js';
import { deckMayHandle } from './keyboard.js';
import { SLIDE_HEIGHT, SLIDE_WIDTH } from './layout.js';

/**
 * Starts reveal on the `.reveal` element.
 * @param {HTMLElement} root the `.reveal` element, its `.slides` already filled
 * @param {{ narrow: boolean }} options
 * @returns {{ deck: import('reveal.js').default, ready: Promise<unknown> }}
 */
export function startDeck(root, { narrow }) {
  const deck = new Reveal(root, {
    width: SLIDE_WIDTH,
    height: SLIDE_HEIGHT,
    margin: 0,
    minScale: 0.2,
    maxScale: 2.5,
    center: false,
    disableLayout: narrow,
    // Phones get our own layout (layout.js), not reveal's scroll view.
    scrollActivationWidth: null,
    hash: true,
    respondToHashChanges: true,
    controls: true,
    controlsTutorial: false,
    controlsBackArrows: 'visible',
    progress: true,
    slideNumber: false,
    keyboardCondition: deckMayHandle,
    touch: true,
    overview: true,
    help: true,
    transition: 'fade',
    transitionSpeed: 'fast',
    backgroundTransition: 'none',
    navigationMode: 'linear',
    pdfMaxPagesPerSlide: 1,
    pdfSeparateFragments: false,
    preloadIframes: false,
    // Only the slide shown and its two neighbours are laid out, not three on each side (reveal's
    // default): the rest are display: none, so the page's first layout and every layout a figure
    // forces have fewer slides to go through.
    viewDistance: 1,
    ...requestedOptions(deckRequest(window.location.search)),
  });
  keepLinkedHash(window);
  // reveal merges the query over these options as it initialises (and takes ?print-pdf anywhere
  // in it for the print view): it sees none.
  const ready = withoutQuery(window, [], () => deck.initialize());
  return { deck, ready };
}
