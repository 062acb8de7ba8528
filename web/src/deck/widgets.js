// Widget lifecycle in the deck: the entered slide's widget is mounted, the left slide's destroyed.
// Each slide keeps one state object for the whole visit, so what the learner typed is still there
// when they come back. The address follows the figure on the shown slide (share/figure-link.js):
// a copied link opens that slide with the same settings. In the print view every widget is
// mounted at once.
import { settingsFromUrl, urlWithSettings } from '../share/figure-link.js';
import { placeWidget } from '../widgets/host.js';

/** How long the address waits after the last change before it follows the figure, in ms. */
const SETTLE_MS = 250;

/**
 * @param {import('reveal.js').default} deck
 * @param {{ id: string, widget?: { type: string, props?: object } }[]} slides
 */
export function manageWidgets(deck, slides) {
  const specs = new Map(slides.filter((s) => s.widget).map((s) => [s.id, s.widget]));
  /** @type {Map<string, Record<string, unknown>>} */
  const states = new Map();
  /** @type {Map<string, { destroy(): void }>} */
  const placed = new Map();
  const address = followAddress(states);

  /** @param {Element | undefined} section */
  const enter = (section) => {
    const id = section?.id;
    const host = section?.querySelector('.widget-host');
    if (!id || !host || !specs.has(id) || placed.has(id)) return;
    const spec = specs.get(id);
    if (!states.has(id)) states.set(id, settingsFromUrl(location.href, id, spec.props));
    placed.set(id, placeWidget(/** @type {HTMLElement} */ (host), spec, states.get(id)));
  };
  /** @param {string} id */
  const leave = (id) => {
    placed.get(id)?.destroy();
    placed.delete(id);
  };
  /** @param {Element | undefined} current */
  const show = (current) => {
    for (const id of [...placed.keys()]) if (id !== current?.id) leave(id);
    enter(current);
    address.follow(current?.id);
  };

  deck.on('ready', (event) => {
    if (deck.isPrintView()) {
      deck.getSlides().forEach(enter);
      return;
    }
    show(event.currentSlide);
    // Whatever the learner changes in a figure ends in its state; the address catches up.
    deck.getSlidesElement()?.addEventListener('input', address.soon);
    deck.getSlidesElement()?.addEventListener('change', address.soon);
    deck.getSlidesElement()?.addEventListener('click', address.soon);
  });
  deck.on('slidechanged', (event) => show(event.currentSlide));
}

/**
 * Keeps the address's query in step with the state of the shown slide's figure.
 * @param {Map<string, Record<string, unknown>>} states
 */
function followAddress(states) {
  /** @type {string | undefined} */
  let shown;
  let timer = 0;
  const write = () => {
    timer = 0;
    // The slide's own hash too: reveal may write it up to a second later.
    const here = new URL(location.href);
    if (shown) here.hash = `/${shown}`;
    const next = urlWithSettings(here, shown ?? '', (shown && states.get(shown)) || {});
    if (next !== location.href) history.replaceState(history.state, '', next);
  };
  return {
    /** @param {string | undefined} id the slide now shown */
    follow(id) {
      shown = id;
      // After reveal has written the slide's own address.
      clearTimeout(timer);
      timer = window.setTimeout(write, 0);
    },
    soon() {
      clearTimeout(timer);
      timer = window.setTimeout(write, SETTLE_MS);
    },
  };
}
