// The fixed parts of a quiz view: a form with the question's fieldset, the feedback live region,
// the action buttons and the score line. The view fills them in; nothing here has behaviour.

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string>} [attributes]
 * @param {Array<Node | string>} [children]
 * @returns {HTMLElement}
 */
export function element(doc, tag, attributes = {}, children = []) {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/**
 * @param {Document} doc
 * @param {string} id a prefix unique in the document
 */
export function buildQuizParts(doc, id) {
  const legend = element(doc, 'legend', { id: `${id}-legend`, class: 'quiz-progress' });
  const prompt = element(doc, 'div', { id: `${id}-prompt`, class: 'quiz-prompt' });
  const choices = element(doc, 'div', { class: 'quiz-choices' });
  const question = element(
    doc,
    'fieldset',
    { class: 'quiz-question', 'aria-labelledby': `${id}-legend ${id}-prompt` },
    [legend, prompt, choices],
  );
  const teachLink = element(doc, 'a', { class: 'quiz-teach-link' });
  const teach = element(doc, 'p', { class: 'quiz-teach' }, [teachLink]);
  const feedback = element(doc, 'div', { class: 'quiz-feedback', role: 'status' });
  const button = (className, text, type = 'button') =>
    element(doc, 'button', { type, class: `quiz-button ${className}` }, [text]);
  const check = button('quiz-check', 'Check', 'submit');
  const next = button('quiz-next', 'Next question');
  const restart = button('quiz-restart quiz-button-secondary', 'Try again');
  const actions = element(doc, 'div', { class: 'quiz-actions' }, [check, next, restart]);
  const score = element(doc, 'p', { class: 'quiz-score' });
  const form = element(doc, 'form', { class: 'quiz-form', novalidate: '' }, [
    question,
    teach,
    feedback,
    actions,
    score,
  ]);
  const root = element(doc, 'div', { class: 'quiz' }, [form]);
  return {
    root,
    form: /** @type {HTMLFormElement} */ (form),
    question,
    legend,
    prompt,
    choices,
    teach,
    teachLink: /** @type {HTMLAnchorElement} */ (teachLink),
    feedback,
    check: /** @type {HTMLButtonElement} */ (check),
    next: /** @type {HTMLButtonElement} */ (next),
    restart: /** @type {HTMLButtonElement} */ (restart),
    score,
  };
}

/**
 * One choice: a real radio button whose label is the choice's HTML, and a tag the view fills in
 * after the answer ("Your answer", "Correct answer").
 * @param {Document} doc
 * @param {string} name the radio group's name
 * @param {number} index
 * @param {string} html
 * @returns {HTMLLabelElement}
 */
export function buildChoice(doc, name, index, html) {
  const id = `${name}-choice-${index}`;
  // Named through aria-labelledby as well as by the wrapping label: browsers leave math out of a
  // label's text, but not out of a referenced element's.
  const input = element(doc, 'input', {
    type: 'radio',
    name,
    value: String(index),
    'aria-labelledby': `${id} ${id}-tag`,
  });
  const text = element(doc, 'span', { id, class: 'quiz-choice-text' });
  text.innerHTML = html;
  nameMath(text);
  const tag = element(doc, 'span', { id: `${id}-tag`, class: 'quiz-choice-tag' });
  return /** @type {HTMLLabelElement} */ (
    element(doc, 'label', { class: 'quiz-choice' }, [input, text, tag])
  );
}

/**
 * Gives each MathML formula in `root` a plain name made of its symbols in reading order, as
 * browsers read it into a label ("α 3 , 2"), so that checkers that skip MathML see the same name.
 * @param {Element} root
 */
function nameMath(root) {
  for (const math of Array.from(root.querySelectorAll('math:not([aria-label])'))) {
    const symbols = Array.from(math.querySelectorAll('mi, mn, mo, mtext, ms'), (node) =>
      node.textContent.trim(),
    ).filter(Boolean);
    if (symbols.length > 0) math.setAttribute('aria-label', symbols.join(' '));
  }
}
