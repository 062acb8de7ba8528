// A safety net for long slide text: when a slide's text does not fit its 1280 x 720 frame, it is
// scaled down a little (never below 75%) instead of running under the figure or off the slide.

const STEP = 0.05;
const SMALLEST = 0.75;
/** Math may overhang its line box by a pixel or two without anything being cut. */
const SLACK = 6;

/**
 * @param {HTMLElement} box
 * @returns {boolean}
 */
function overflows(box) {
  return box.scrollHeight > box.clientHeight + SLACK;
}

/**
 * Shrinks the slide's text until it fits (or reaches the smallest size).
 * @param {Element | undefined} section
 */
export function fitSlide(section) {
  const main = /** @type {HTMLElement | null} */ (section?.querySelector('.slide-main'));
  const text = /** @type {HTMLElement | null} */ (section?.querySelector('.slide-text'));
  if (!main || !text || document.documentElement.classList.contains('deck-narrow')) return;
  let scale = 1;
  text.style.removeProperty('zoom');
  while ((overflows(main) || overflows(text)) && scale - STEP >= SMALLEST - 1e-9) {
    scale -= STEP;
    text.style.zoom = String(scale);
  }
}

/**
 * Fits each slide as it is shown (and all of them in the print view).
 * @param {import('reveal.js').default} deck
 */
export function fitSlides(deck) {
  deck.on('ready', (event) => {
    if (deck.isPrintView()) deck.getSlides().forEach(fitSlide);
    else fitSlide(event.currentSlide);
  });
  deck.on('slidechanged', (event) => fitSlide(event.currentSlide));
  // The math fonts may arrive after the first measurement and change the text's size.
  document.fonts?.ready.then(() => {
    if (!deck.isReady()) return;
    if (deck.isPrintView()) deck.getSlides().forEach(fitSlide);
    else fitSlide(deck.getCurrentSlide());
  });
}
