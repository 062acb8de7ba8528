// A row of choice buttons (choices.css) as markup: the segmented choice every figure with a few
// exclusive options uses, so that each widget names only its options.

/**
 * @param {string} name the radio group's name, unique on the page (it begins with the widget's id)
 * @param {ReadonlyArray<readonly [string | number, string]>} options each option's value and label
 *   (markup)
 * @param {{ row?: string, choice?: string, numeric?: boolean }} [classes] the row's and each
 *   choice's further classes; numeric for options that are numbers (equal widths, aligned digits)
 * @returns {string} `<div class="choices">` with a `<label class="choice">` around each radio
 */
export function choicesHtml(name, options, { row = '', choice = '', numeric = false } = {}) {
  const rowClass = ['choices', numeric ? 'numeric' : '', row].filter(Boolean).join(' ');
  const choiceClass = ['choice', choice].filter(Boolean).join(' ');
  const labels = options.map(
    ([value, label]) =>
      `<label class="${choiceClass}"><input type="radio" name="${name}" value="${value}" />` +
      `${label}</label>`,
  );
  return `<div class="${rowClass}">${labels.join('')}</div>`;
}
