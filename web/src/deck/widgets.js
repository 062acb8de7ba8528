// Widget lifecycle in the deck: the entered slide's widget is mounted, the left slide's destroyed.
// Each slide keeps one state object per view of its figure for the whole visit, so what the
// learner typed is still there when they come back. A figure with more than one view mounts only
// the chosen one (the choice is in the slide's header); the host's `widget-<type>` class and the
// header's line naming the model shown follow it. The address follows the figure on the shown slide (share/figure-link.js), from the state
// each widget hands back (onState, widgets/shared/registry.js): a copied link opens that slide
// with the same view and settings. In the print view every widget is mounted at once.
import {
  FIGURE_PARAM,
  linkSettings,
  settingsFromUrl,
  urlWithSettings,
  viewFromUrl,
} from '../share/figure-link.js';
import { LESSON_PARAM } from '../lesson-address.js';
import { showChosen, showModel, viewsOf } from '../share/figure-views.js';
import { placeWidget } from '../widgets/shared/host.js';

/** How long the address waits after the last change before it follows the figure, in ms. */
const SETTLE_MS = 250;

/**
 * @typedef {object} FigureOptions
 * @property {Map<string, { view: string, settings: Record<string, unknown> }>} [resumed] figures
 *   to start from on a slide the address names no figure for (an LMS's, lms/resume.js)
 * @property {(figures: [string, import('../lms/resume.js').KeptFigure][], shown?: string) => void}
 *   [onChange] called with every figure as a link would keep it, in the lesson's order, when
 *   the learner changes one (its state or its view)
 * @property {(slide: string, type: string, state: Record<string, unknown>) => void} [onState]
 *   called with a widget's whole state each time it hands one back (what a link keeps is only
 *   part of it: the knowledge check's answers are the rest)
 * @property {string | null} [linkKey] the lesson's key, which the address names (none: the
 *   first lesson, which it does not)
 */

/**
 * @param {import('reveal.js').default} deck
 * @param {{ id: string, widget?: { type: string, label?: string, props?: object,
 *   also?: { type: string, label: string, props?: object }[] } }[]} slides
 * @param {FigureOptions} [options]
 */
export function manageWidgets(deck, slides, options = {}) {
  const views = new Map(slides.filter((s) => s.widget).map((s) => [s.id, viewsOf(s.widget)]));
  /** Per slide, per view: the state kept across mounts. @type {Map<string, Map<string, Record<string, unknown>>>} */
  const states = new Map();
  /** Per slide, per view: the place (host.js) its widget's runs are kept by. @type {Map<string, object>} */
  const places = new Map();
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
  /** @param {string} id @returns {{ settings: Record<string, unknown>, view: string | undefined }} */
  const figureOf = (id) => {
    const list = views.get(id);
    if (!list || !states.has(id)) return { settings: {}, view: undefined };
    const view = viewOf(id);
    const settings = linkSettings(view.type, stateOf(id, view.type));
    return { settings, view: view === list[0] ? undefined : view.type };
  };
  const address = followAddress(figureOf, options.linkKey ?? null);
  /** @type {string | undefined} */
  let shown;
  // Every figure for the caller: as this visit left it, else as it was resumed.
  const changed = () => {
    if (!options.onChange) return;
    /** @type {[string, import('../lms/resume.js').KeptFigure][]} */
    const figures = [];
    for (const [id, list] of views) {
      const resumed = options.resumed?.get(id);
      if (states.has(id)) figures.push([id, figureOf(id)]);
      else if (resumed) {
        const view = resumed.view === list[0].type ? undefined : resumed.view;
        figures.push([id, { view, settings: resumed.settings }]);
      }
    }
    options.onChange(figures, shown);
  };

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
    showModel(section, view);
    const spec = { type: view.type, props: view.props };
    const key = `${id}\u0000${view.type}`;
    const place = places.get(key) ?? {};
    places.set(key, place);
    const onState = (/** @type {Record<string, unknown>} */ next) => {
      states.get(id)?.set(view.type, next);
      address.soon();
      changed();
      options.onState?.(id, view.type, next);
    };
    const kept = { state: stateOf(id, view.type), place, onState };
    placed.set(id, placeWidget(host, spec, kept));
  };

  /** @param {Element | undefined} section */
  const enter = (section) => {
    const id = section?.id;
    if (!section || !id || !views.has(id) || placed.has(id)) return;
    if (!states.has(id)) {
      // The first visit: the address may name a view and its settings, else an LMS may have
      // kept them from the last launch.
      const list = /** @type {import('../share/figure-views.js').FigureView[]} */ (views.get(id));
      const linked = new URL(location.href).searchParams.get(FIGURE_PARAM) === id;
      const resumed = linked ? undefined : options.resumed?.get(id);
      const asked = resumed?.view ?? viewFromUrl(location.href, id);
      const view = list.find((v) => v.type === asked) ?? list[0];
      const settings = resumed?.settings ?? settingsFromUrl(location.href, id, view.type);
      chosen.set(id, view.type);
      states.set(id, new Map([[view.type, { ...settings }]]));
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
    shown = current?.id;
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
    address.soon();
    changed();
  };

  deck.on('ready', () => {
    if (deck.isPrintView()) {
      deck.getSlides().forEach(enter);
      return;
    }
    // The slide shown now: an earlier 'ready' listener may have moved on from the one the event
    // names (an LMS's resume, deck/lms.js).
    show(deck.getCurrentSlide());
    // The choice of views is the deck's own control; a widget's changes come through onState.
    deck.getSlidesElement()?.addEventListener('change', choose);
  });
  deck.on('slidechanged', (event) => show(event.currentSlide));
}

/**
 * Keeps the address's query in step with the view and state of the shown slide's figure, and
 * naming the lesson shown as a link to it would (a value that names none goes).
 * @param {(id: string) => { settings: Record<string, unknown>, view: string | undefined }} figureOf
 * @param {string | null} linkKey
 */
function followAddress(figureOf, linkKey) {
  /** @type {string | undefined} */
  let shown;
  let timer = 0;
  const write = () => {
    timer = 0;
    // The slide's own hash too: reveal may write it up to a second later.
    const here = new URL(location.href);
    if (shown) here.hash = `/${shown}`;
    if (linkKey) here.searchParams.set(LESSON_PARAM, linkKey);
    else here.searchParams.delete(LESSON_PARAM);
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
