// A slide whose figure has more than one view ("Stored facts | Trained models"): the list of its
// views from the lesson data, and the choice between them, drawn with the shared choice buttons.
// The deck puts the choice in the slide's header, the article above the figure; each page mounts
// only the chosen view's widget (deck/widgets.js, article/main.js).
import '../styles/figure-views.css';

/**
 * @typedef {object} FigureView
 * @property {string} type the widget; also the view's name in the address (`&show=<type>`)
 * @property {string} label what the choice button says
 * @property {Record<string, unknown>} props
 */

/**
 * The views of a slide's figure, the slide's own widget first.
 * @param {{ type: string, label?: string, props?: object,
 *   also?: { type: string, label: string, props?: object }[] }} widget
 * @returns {FigureView[]}
 */
export function viewsOf(widget) {
  const first = {
    type: widget.type,
    label: widget.label ?? widget.type,
    props: widget.props ?? {},
  };
  const more = (widget.also ?? []).map((view) => ({
    type: view.type,
    label: view.label,
    props: view.props ?? {},
  }));
  return [first, ...more];
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
 * The file name and title for saving the figure of a view: the first view keeps the slide's
 * own; another adds its type and label.
 * @param {FigureView[]} views
 * @param {string} type the view shown
 * @param {string} name the slide's file name, e.g. 'attention-bottleneck'
 * @param {string} title the slide's title
 */
export function savedAs(views, type, name, title) {
  const index = views.findIndex((view) => view.type === type);
  if (index <= 0) return { name, title };
  return { name: `${name}-${type}`, title: `${title}: ${views[index].label}` };
}
