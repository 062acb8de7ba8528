// A slide whose figure has more than one view ("Stored facts | Trained models"): the list of its
// views from the lesson data, and the choice between them, drawn with the shared choice buttons.
// The deck puts the choice in the slide's header, the article above the figure; each page mounts
// only the chosen view's widget (deck/widgets.js, article/main.js). Every figure, of one view or
// more, has a line naming the model of the view shown, in lesson.yaml's words ("Model: the
// attention translator — English to German, …"): in the deck's header beside the choice, in the
// article and the embed page above the figure; it follows the view chosen (showModel).
import { el } from '../views/heatmap/dom.js';
import '../styles/figure-views.css';

/** What stands between a model's name and what it is, in its line. */
const WHAT_JOIN = ' \u2014 ';

/**
 * @typedef {object} ViewModel the model a view shows, as its lesson's lesson.yaml names it
 * @property {string} key its key in lesson.yaml's `models`
 * @property {string} name e.g. 'the attention translator'
 * @property {boolean} trained false for a figure of untrained parts (raw word vectors, …)
 * @property {string} what a clause: what it is and what it was trained on
 */

/**
 * @typedef {object} FigureView
 * @property {string} type the widget; also the view's name in the address (`&show=<type>`)
 * @property {string} label what the choice button says
 * @property {Record<string, unknown>} props
 * @property {ViewModel} [model] the model it shows (every view but the knowledge check's)
 */

/**
 * The views of a slide's figure, the slide's own widget first.
 * @param {{ type: string, label?: string, model?: ViewModel, props?: object,
 *   also?: { type: string, label: string, model?: ViewModel, props?: object }[] }} widget
 * @returns {FigureView[]}
 */
export function viewsOf(widget) {
  const first = {
    type: widget.type,
    label: widget.label ?? widget.type,
    props: widget.props ?? {},
    ...(widget.model ? { model: widget.model } : {}),
  };
  const more = (widget.also ?? []).map((view) => ({
    type: view.type,
    label: view.label,
    props: view.props ?? {},
    ...(view.model ? { model: view.model } : {}),
  }));
  return [first, ...more];
}

/**
 * Every view of the slides' figures: what a page of them loads for (the widgets' declarations,
 * registry.js `needsOf`).
 * @param {{ widget?: Parameters<typeof viewsOf>[0] }[]} slides
 * @returns {FigureView[]}
 */
export function figureViews(slides) {
  return slides.flatMap((slide) => (slide.widget ? viewsOf(slide.widget) : []));
}

/**
 * The words of the line that names a model: its lead, "Model: <name>" ("Untrained: <name>" for
 * a figure of untrained parts), and what it is.
 * @param {ViewModel} model
 * @returns {{ lead: string, what: string }}
 */
export function modelWords(model) {
  return { lead: `${model.trained ? 'Model' : 'Untrained'}: ${model.name}`, what: model.what };
}

/**
 * The whole line that names a model, as the pages show it.
 * @param {ViewModel} model
 * @returns {string} e.g. 'Model: the attention translator — English to German, …'
 */
export function modelLineText(model) {
  const { lead, what } = modelWords(model);
  return `${lead}${WHAT_JOIN}${what}`;
}

/**
 * The line naming the model of the view shown, filled for the first view: plain text, which a
 * screen reader reads where it stands and says again when the view changes (a polite live
 * region). Null when no view of the figure shows a model (the knowledge check).
 * @param {Document} doc
 * @param {FigureView[]} views
 * @returns {HTMLParagraphElement | null}
 */
export function buildModelLine(doc, views) {
  if (!views.some((view) => view.model)) return null;
  const line = /** @type {HTMLParagraphElement} */ (
    el(doc, 'p', { class: 'figure-model', 'aria-live': 'polite' })
  );
  // In the deck's header only the name fits; what the model is stays for screen readers, and
  // comes back on a phone (deck-figures.css).
  line.append(
    el(doc, 'span', { class: 'figure-model-name' }),
    el(doc, 'span', { class: 'figure-model-what deck-hidden-wide' }),
  );
  fillModelLine(line, views[0]);
  return line;
}

/**
 * Makes the model line in `scope` (if it has one) name the model of `view`.
 * @param {Element | null} scope
 * @param {FigureView} view
 */
export function showModel(scope, view) {
  const line = /** @type {HTMLElement | null | undefined} */ (
    scope?.querySelector('.figure-model')
  );
  if (line) fillModelLine(line, view);
}

/**
 * Writes a view's model into its line, touching only what changes (the live region speaks then).
 * @param {HTMLElement} line built by buildModelLine
 * @param {FigureView} view
 */
function fillModelLine(line, view) {
  line.hidden = !view.model;
  if (!view.model) return;
  const { lead, what } = modelWords(view.model);
  const parts = /** @type {[HTMLElement, HTMLElement]} */ ([...line.children]);
  const texts = [lead, `${WHAT_JOIN}${what}`];
  parts.forEach((part, i) => {
    if (part.textContent !== texts[i]) part.textContent = texts[i];
  });
  // Where the deck's header cuts the clause short, a pointer still shows all of it.
  line.title = texts.join('');
  line.dataset.model = view.model.key;
}

/**
 * The choice of view: one radio button per view, the first checked. Arrow keys move between them
 * (and, inside it, never move the slides: deck/keyboard.js).
 * @param {Document} doc
 * @param {FigureView[]} views
 * @param {string} name unique on the page, for the radio group
 * @returns {HTMLFieldSetElement}
 */
export function buildViewChoice(doc, views, name) {
  const fieldset = /** @type {HTMLFieldSetElement} */ (doc.createElement('fieldset'));
  fieldset.className = 'figure-views';
  const legend = doc.createElement('legend');
  legend.className = 'visually-hidden';
  legend.textContent = 'Figure view';
  const row = doc.createElement('div');
  row.className = 'choices figure-views-choices';
  views.forEach((view, index) => {
    const label = doc.createElement('label');
    label.className = 'choice figure-view';
    const input = doc.createElement('input');
    input.type = 'radio';
    input.name = name;
    input.value = view.type;
    input.checked = index === 0;
    label.append(input, view.label);
    row.append(label);
  });
  fieldset.append(legend, row);
  return fieldset;
}

/**
 * Checks the button of view `type` in a choice.
 * @param {Element | null} choice
 * @param {string} type
 */
export function showChosen(choice, type) {
  for (const input of choice?.querySelectorAll('input') ?? []) {
    input.checked = input.value === type;
  }
}

/**
 * The file name, without extension, of a slide's saved figure: the lesson's key and the slide's
 * id, so that figures saved from two lessons' slides of one id do not share a name.
 * @param {string} lessonKey e.g. 'attention', 'transformer'
 * @param {string} id the slide's id
 * @returns {string} e.g. 'transformer-title'
 */
export function figureFileName(lessonKey, id) {
  return `${lessonKey}-${id}`;
}

/**
 * The file name and title for saving the figure of a view: the first view keeps the slide's
 * own; another adds its type and label.
 * @param {FigureView[]} views
 * @param {string} type the view shown
 * @param {string} name the slide's file name (figureFileName), e.g. 'attention-bottleneck'
 * @param {string} title the slide's title
 */
export function savedAs(views, type, name, title) {
  const index = views.findIndex((view) => view.type === type);
  if (index <= 0) return { name, title };
  return { name: `${name}-${type}`, title: `${title}: ${views[index].label}` };
}
