// What can wait until the page has loaded: the downloads a later slide needs start once the
// window's load event has fired and the main thread is idle, so that they do not compete with
// what the first slide shows.

/**
 * Resolves once `win` has loaded and then been idle (or after `timeout` ms of waiting for idle).
 * @param {Window} [win]
 * @param {number} [timeout] the longest wait for an idle moment, in ms
 * @returns {Promise<void>}
 */
export function afterLoad(win = window, timeout = 500) {
  return new Promise((resolve) => {
    const idle = () => {
      if (typeof win.requestIdleCallback === 'function') {
        win.requestIdleCallback(() => resolve(), { timeout });
      } else win.setTimeout(resolve, 0);
    };
    if (win.document.readyState === 'complete') idle();
    else win.addEventListener('load', idle, { once: true });
  });
}
