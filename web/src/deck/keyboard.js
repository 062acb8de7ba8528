// Keys pressed inside a widget (or its Figure menu, or the choice of its view) belong to it:
// typing, moving through the heatmap's grid or between views never moves the slides. Escape hands
// the keyboard back to the deck, and so does moving focus out of the widget (Tab, a click
// elsewhere).

const HOST = '.widget-host, .figure-tools, .figure-views';

/**
 * @param {Event | { target?: EventTarget | null }} [event]
 * @returns {boolean} whether the key was pressed with focus inside a widget
 */
function fromWidget(event) {
  const target = event?.target instanceof Element ? event.target : document.activeElement;
  return Boolean(target?.closest(HOST));
}

/**
 * For reveal's `keyboardCondition`: the deck handles a key only when it was not meant for a
 * widget.
 * @param {KeyboardEvent} event
 * @returns {boolean}
 */
export function deckMayHandle(event) {
  return !fromWidget(event);
}

/**
 * Escape inside a widget leaves the widget: focus goes back to the slide, so the arrow keys move
 * the slides again.
 * @param {Document} doc
 */
export function releaseOnEscape(doc) {
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return;
    if (!fromWidget(event)) return;
    const active = doc.activeElement;
    if (active instanceof HTMLElement || active instanceof SVGElement) active.blur();
  });
}
