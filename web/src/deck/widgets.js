// Widget lifecycle in the deck: the entered slide's widget is mounted, the left slide's destroyed.
// Each slide keeps one state object for the whole visit, so what the learner typed is still there
// when they come back. In the print view every widget is mounted at once.
import { placeWidget } from '../widgets/host.js';

/**
 * @param {import('reveal.js').default} deck
 * @param {{ id: string, widget?: { type: string, props?: object } }[]} slides
 */
export function manageWidgets(deck, slides) {
  const specs = new Map(slides.filter((s) => s.widget).map((s) => [s.id, s.widget]));
  /** @type {Map<string, object>} */
  const states = new Map();
  /** @type {Map<string, { destroy(): void }>} */
  const placed = new Map();

  /** @param {Element | undefined} section */
  const enter = (section) => {
    const id = section?.id;
    const host = section?.querySelector('.widget-host');
    if (!id || !host || !specs.has(id) || placed.has(id)) return;
    if (!states.has(id)) states.set(id, {});
    placed.set(id, placeWidget(/** @type {HTMLElement} */ (host), specs.get(id), states.get(id)));
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
  };

  deck.on('ready', (event) => {
    if (deck.isPrintView()) deck.getSlides().forEach(enter);
    else show(event.currentSlide);
  });
  deck.on('slidechanged', (event) => show(event.currentSlide));
}
