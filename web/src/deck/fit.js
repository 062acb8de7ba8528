// Safety nets for slides that would not fit. On the scaled deck, a slide's text that does not fit
// its 1280 x 720 frame is scaled down a little (never below 75%) instead of running under the
// figure or off the slide. On a phone, a display formula wider than the screen is set smaller
// (never below 60%); one still too wide scrolls sideways inside its own box.

const STEP = 0.05;
const SMALLEST = 0.75;
const SMALLEST_FORMULA = 0.6;
/** Math may overhang its line box by a pixel or two without anything being cut. */
const SLACK = 6;

/**
 * @param {HTMLElement} box
 * @returns {boolean}
 */
function overflows(box) {
  return box.scrollHeight > box.clientHeight + SLACK;
}

/** @returns {boolean} whether the deck shows the phone layout (layout.js) */
function isNarrowLayout() {
  return document.documentElement.classList.contains('deck-narrow');
}

/**
 * Shrinks the slide's text until it fits (or reaches the smallest size).
 * @param {Element | undefined} section
 */
export function fitSlide(section) {
  const main = /** @type {HTMLElement | null} */ (section?.querySelector('.slide-main'));
  const text = /** @type {HTMLElement | null} */ (section?.querySelector('.slide-text'));
  if (!main || !text || isNarrowLayout()) return;
  let scale = 1;
  text.style.removeProperty('zoom');
  while ((overflows(main) || overflows(text)) && scale - STEP >= SMALLEST - 1e-9) {
    scale -= STEP;
    text.style.zoom = String(scale);
  }
}

/**
 * On a phone, sets each display formula of the slide small enough to fit the screen's width (or
 * as small as it may go, and then lets it scroll inside its box: swipes on it move the formula,
 * not the slides). Elsewhere, formulas keep their own size.
 * @param {Element | undefined} section
 */
export function fitFormulas(section) {
  const narrow = isNarrowLayout();
  for (const box of section?.querySelectorAll('.slide-body .katex-display') ?? []) {
    const formula = /** @type {HTMLElement} */ (box);
    formula.style.removeProperty('font-size');
    formula.removeAttribute('data-prevent-swipe');
    if (!narrow || formula.clientWidth === 0) continue;
    // Width scales with the font size, but not exactly (rules, spacing rounded to pixels): a
    // second look corrects what the first estimate left over.
    let scale = 1;
    for (let pass = 0; pass < 3 && formula.scrollWidth > formula.clientWidth + 1; pass++) {
      scale = Math.max(
        SMALLEST_FORMULA,
        (scale * formula.clientWidth) / formula.scrollWidth - 0.01,
      );
      formula.style.fontSize = `${scale.toFixed(3)}em`;
      if (scale === SMALLEST_FORMULA) break;
    }
    if (formula.scrollWidth > formula.clientWidth + 1)
      formula.setAttribute('data-prevent-swipe', '');
  }
}

/**
 * Fits each slide as it is shown (and all of them in the print view), and again when the screen
 * changes or fonts arrive.
 * @param {import('reveal.js').default} deck
 */
export function fitSlides(deck) {
  const fit = (/** @type {Element | undefined} */ slide) => {
    fitSlide(slide);
    fitFormulas(slide);
  };
  const fitShown = () => {
    if (deck.isPrintView()) deck.getSlides().forEach(fit);
    else fit(deck.getCurrentSlide());
  };
  deck.on('ready', fitShown);
  deck.on('slidechanged', (event) => fit(event.currentSlide));
  deck.on('resize', fitShown);
  // Fonts load as text first needs them (the math's, a formula's italic): each arrival can
  // change a size measured before it.
  document.fonts?.addEventListener('loadingdone', () => {
    if (deck.isReady()) fitShown();
  });
}
