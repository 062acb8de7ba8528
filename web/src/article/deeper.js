// The article's deeper parts (`<details class="deeper">`, written in a slide file between
// `<!-- deeper: Title -->` and `<!-- /deeper -->`) are closed on screen and open on paper: the
// print stylesheet shows a closed part's text where the browser supports it, and this opens every
// closed part before printing and closes it again afterwards, so the printout holds all of the
// article in any browser.

/**
 * @param {Window} win
 * @param {ParentNode} root where the article's sections are
 */
export function openDeeperForPrint(win, root) {
  /** @type {HTMLDetailsElement[]} */
  let opened = [];
  win.addEventListener('beforeprint', () => {
    opened = [...root.querySelectorAll('details.deeper:not([open])')].map(
      (node) => /** @type {HTMLDetailsElement} */ (node),
    );
    for (const details of opened) details.open = true;
  });
  win.addEventListener('afterprint', () => {
    for (const details of opened) details.open = false;
    opened = [];
  });
}
