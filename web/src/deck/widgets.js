// Widget lifecycle in the deck: the entered slide's widget is mounted, the left slide's destroyed.
// Each slide keeps one state object per view of its figure for the whole visit, so what the
// learner typed is still there when they come back. A figure with more than one view mounts only
// the chosen one (the choice is in the slide's header); the host's `widget-<type>` class follows
// it. The address follows the figure on the shown slide (share/figure-link.js): a copied link
// opens that slide with the same view and settings. In the print view every widget is mounted at
// once.
import {
  linkSettings,
  settingsFromUrl,
  urlWithSettings,
  viewFromUrl,
} from '../share/figure-link.js';
import { showChosen, viewsOf } from '../share/figure-views.js';
import { placeWidget } from '../widgets/shared/host.js';

/** How long the address waits after the last change before it follows the figure, in ms. */
const SETTLE_MS = 250;

/**
 * @param {import('reveal.js').default} deck
 * @param {{ id: string, widget?: { type: string, label?: string, props?: object,
 *   also?: { type: string, label: string, props?: object }[] } }[]} slides
 */
export function manageWidgets(deck, slides) {
  const views = new Map(slides.filter((s) => s.widget).map((s) => [s.id, viewsOf(s.widget)]));
  /** Per slide, per view: the state kept across mounts. @type {Map<string, Map<string, Record<string, unknown>>>} */
  const states = new Map();
  /** Per slide: the view chosen (its type). @type {Map<string, string>} */
  const chosen = new Map();
  /** @type {Map<string, { destroy(): void }>} */
  const placed = new Map();

  /** @param {string} id @returns {import('../share/figure-views.js').FigureView} */
  const viewOf = (id) => {
    const list = /** @type {import('../share/figure-views.js').FigureView[]} */ (views.get(id));
    return list.find((view) => view.type === chosen.get(id)) ?? list[0];
  };
  /** @param {string} id @param {string} type */
  const stateOf = (id, type) => {
    const byView = states.get(id) ?? new Map();
    states.set(id, byView);
    if (!byView.has(type)) byView.set(type, {});
    return /** @type {Record<string, unknown>} */ (byView.get(type));
  };
  const address = followAddress((id) => {
    const list = views.get(id);
    if (!list || !states.has(id)) return { settings: {}, view: undefined };
    const view = viewOf(id);
    const settings = linkSettings(view.type, stateOf(id, view.type));
    return { settings, view: view === list[0] ? undefined : view.type };
  });

  /**
   * Mounts the chosen view's widget into the slide's host.
   * @param {Element} section
   * @param {string} id
   */
  const place = (section, id) => {
    const host = /** @type {HTMLElement | null} */ (section.querySelector('.widget-host'));
    if (!host) return;
    const view = viewOf(id);
    const before = host.dataset.widget;
    if (before) host.classList.remove(`widget-${before}`);
    host.classList.add(`widget-${view.type}`);
    host.dataset.widget = view.type;
    showChosen(section.querySelector('.figure-views'), view.type);
    const spec = { type: view.type, props: view.props };
    placed.set(id, placeWidget(host, spec, stateOf(id, view.type)));
  };

  /** @param {Element | undefined} section */
  const enter = (section) => {
    const id = section?.id;
    if (!section || !id || !views.has(id) || placed.has(id)) return;
    if (!states.has(id)) {
      // The first visit: the address may name a view and its settings.
      const list = /** @type {import('../share/figure-views.js').FigureView[]} */ (views.get(id));
      const asked = viewFromUrl(location.href, id);
      const view = list.find((v) => v.type === asked) ?? list[0];
      chosen.set(id, view.type);
      states.set(id, new Map([[view.type, settingsFromUrl(location.href, id, view.type)]]));
    }
    place(section, id);
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
  /** @param {Event} event a change anywhere in the slides: a new view chosen? */
  const choose = (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.closest('.figure-views')) return;
    const section = input.closest('section[id]');
    const id = section?.id;
    if (!section || !id || !views.get(id)?.some((view) => view.type === input.value)) return;
    if (viewOf(id).type === input.value && placed.has(id)) return;
    leave(id);
    chosen.set(id, input.value);
    place(section, id);
  };

  deck.on('ready', (event) => {
    if (deck.isPrintView()) {
      deck.getSlides().forEach(enter);
      return;
    }
    show(event.currentSlide);
    deck.getSlidesElement()?.addEventListener('change', choose);
    // Whatever the learner changes in a figure ends in its state; the address catches up.
    deck.getSlidesElement()?.addEventListener('input', address.soon);
    deck.getSlidesElement()?.addEventListener('change', address.soon);
    deck.getSlidesElement()?.addEventListener('click', address.soon);
  });
  deck.on('slidechanged', (event) => show(event.currentSlide));
}

/**
 * Keeps the address's query in step with the view and state of the shown slide's figure.
 * @param {(id: string) => { settings: Record<string, unknown>, view: string | undefined }} figureOf
 */
function followAddress(figureOf) {
  /** @type {string | undefined} */
  let shown;
  let timer = 0;
  const write = () => {
    timer = 0;
    // The slide's own hash too: reveal may write it up to a second later.
    const here = new URL(location.href);
    if (shown) here.hash = `/${shown}`;
    const { settings, view } = shown ? figureOf(shown) : { settings: {}, view: undefined };
    const next = urlWithSettings(here, shown ?? '', settings, view);
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
