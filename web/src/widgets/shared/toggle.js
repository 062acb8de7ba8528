// A check box with its label and help as markup, in the toggle style (widgets.css): the one
// wording of a figure's on/off switch, so that each widget names only its switch.

/**
 * @param {string} id the widget instance's id; the box's is `${id}-${name}`, its help's
 *   `${id}-${name}-help`
 * @param {{ name: string, label: string, help: string, input: string, toggleClass?: string,
 *   helpClass?: string }} field the box's name, the label's text and the help (markup) under it,
 *   which the deck hides and the page shows; the box's classes, and the toggle's and the help's
 *   further classes
 * @returns {string} `<div class="toggle">` with the box, then its label above its help
 */
export function toggleHtml(id, field) {
  const { name, label, help, input, toggleClass = '', helpClass = '' } = field;
  const also = (classes) => (classes ? ` ${classes}` : '');
  return `<div class="toggle${also(toggleClass)}">
  <input id="${id}-${name}" class="${input}" name="${name}" type="checkbox"
    aria-describedby="${id}-${name}-help" />
  <div>
    <label for="${id}-${name}">${label}</label>
    <p id="${id}-${name}-help" class="help${also(helpClass)} deck-hidden">${help}</p>
  </div>
</div>`;
}
