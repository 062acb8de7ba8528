// Slide layout by screen: from a tablet up, reveal scales a fixed 1280 x 720 slide to the screen,
// as on a projector. On a phone (or a very short window) that would shrink the text past reading,
// so reveal's scaling is turned off and each slide becomes a scrollable, phone-sized page.
import { deckRequest } from './address.js';

export const SLIDE_WIDTH = 1280;
export const SLIDE_HEIGHT = 720;
const NARROW = '(max-width: 700px), (max-height: 440px)';

/**
 * @param {Window} win
 * @returns {boolean} whether this is the print view (`?print-pdf`), which always uses pages
 */
export function isPrintRequest(win) {
  return deckRequest(win.location.search).print;
}

/**
 * @param {Window} win
 * @returns {boolean} whether this deck is a preview inside the speaker view, which shows the
 *   slides as the room sees them, however small its frames
 */
export function isSpeakerPreview(win) {
  return deckRequest(win.location.search).preview;
}

/**
 * @param {Window} win
 * @returns {boolean}
 */
export function isNarrow(win) {
  return !isPrintRequest(win) && !isSpeakerPreview(win) && win.matchMedia(NARROW).matches;
}

/**
 * Marks the page for the narrow layout's CSS.
 * @param {Document} doc
 * @param {boolean} narrow
 */
export function markLayout(doc, narrow) {
  doc.documentElement.classList.toggle('deck-narrow', narrow);
}

/**
 * Switches between the scaled and the phone layout when the screen changes (rotation, resizing).
 * @param {Window} win
 * @param {import('reveal.js').default} deck
 */
export function followScreen(win, deck) {
  if (isPrintRequest(win) || isSpeakerPreview(win)) return;
  win.matchMedia(NARROW).addEventListener('change', (event) => {
    markLayout(win.document, event.matches);
    if (event.matches) clearScaling(deck.getSlidesElement());
    deck.configure({ disableLayout: event.matches });
    deck.layout();
  });
}

/**
 * Removes the sizes and transform reveal set while it scaled the slides.
 * @param {HTMLElement} slides
 */
function clearScaling(slides) {
  for (const name of ['width', 'height', 'zoom', 'left', 'top', 'right', 'bottom', 'transform']) {
    slides.style.removeProperty(name);
  }
  for (const section of slides.querySelectorAll(':scope > section')) {
    /** @type {HTMLElement} */ (section).style.removeProperty('top');
  }
}
