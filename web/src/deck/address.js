// What the deck takes from its own address. reveal.js merges every query parameter over its
// configuration when it starts, and its notes plugin reads the query when it is registered; a
// link could so set any option (keyboard=false, autoSlide, width=NaN, ...). The deck therefore
// starts reveal and registers the plugin while the address has no query, and reads from the query
// itself only what it means a link to set: the print view (`?print-pdf`), the speaker view's
// previews (`?receiver`, with the two flags its plugin writes) and the figure's settings
// (share/figure-link.js). The hash, the slide's address, stays for reveal to read.

/** The query parameter that asks for the print view. */
export const PRINT_PARAM = 'print-pdf';
/** The query parameter of the deck inside the speaker view (reveal's notes plugin sets it). */
export const PREVIEW_PARAM = 'receiver';

/**
 * @typedef {object} DeckRequest
 * @property {boolean} print the print view: one page per slide, every figure drawn
 * @property {boolean} preview a preview inside the speaker view
 * @property {boolean} previewEvents the speaker view's current-slide preview, which reports its
 *   slide changes to the speaker view (`postMessageEvents=true`)
 * @property {boolean} previewControls whether a preview shows the arrows (the upcoming-slide
 *   preview asks for none: `controls=false`)
 */

/**
 * @param {string} search the page's location.search
 * @returns {DeckRequest}
 */
export function deckRequest(search) {
  const params = new URLSearchParams(search);
  const preview = params.has(PREVIEW_PARAM);
  return {
    print: params.has(PRINT_PARAM),
    preview,
    previewEvents: preview && params.get('postMessageEvents') === 'true',
    previewControls: !(preview && params.get('controls') === 'false'),
  };
}

/**
 * The options of reveal.js that the address decides, for what it asks.
 * @param {DeckRequest} request
 * @returns {Record<string, unknown>}
 */
export function requestedOptions(request) {
  /** @type {Record<string, unknown>} */
  const options = {};
  if (request.print) options.view = 'print';
  if (request.preview) {
    // What the notes plugin's previews ask for: the slide as it stands, no animation of its own.
    Object.assign(options, {
      progress: false,
      transition: 'none',
      backgroundTransition: 'none',
      autoSlide: 0,
      controls: request.previewControls,
      postMessageEvents: request.previewEvents,
    });
  }
  return options;
}

/**
 * Runs `task` while the page's address has no query but `keep` (the hash stays), then puts the
 * address back as it was: code that reads the query as it runs sees only `keep`.
 * @template T
 * @param {Window} win
 * @param {string[]} keep the parameters left in, by name (with their values)
 * @param {() => T} task synchronous
 * @returns {T}
 */
export function withoutQuery(win, keep, task) {
  const address = win.location.href;
  const bare = new URL(address);
  const kept = new URLSearchParams();
  for (const [name, value] of bare.searchParams) if (keep.includes(name)) kept.append(name, value);
  bare.search = kept.toString();
  if (bare.href === address) return task();
  const { history } = win;
  history.replaceState(history.state, '', bare.href);
  try {
    return task();
  } finally {
    history.replaceState(history.state, '', address);
  }
}

/**
 * Keeps where a hash link goes when the address is rewritten before the link's `hashchange` is
 * handled. reveal.js writes the shown slide's hash up to a second after a move, and the figure's
 * settings follow the address a moment after they change (deck/widgets.js); a browser may run
 * such a pending write between a link's change of the hash and its `hashchange` event, and reveal,
 * which reads the address when the event comes, would then stay on the slide the write named.
 * The event still carries the link's address (`newURL`): this puts its hash back, the rest of the
 * address as written. Registered before reveal's own listener, so reveal reads the link's hash.
 * @param {Window} win
 */
export function keepLinkedHash(win) {
  win.addEventListener('hashchange', (event) => {
    const linked = new URL(event.newURL).hash;
    if (linked === win.location.hash) return;
    const here = new URL(win.location.href);
    here.hash = linked;
    win.history.replaceState(win.history.state, '', here.href);
  });
}
