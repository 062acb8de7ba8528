// An embedded figure tells the page that frames it how tall it is, so that page can size the
// frame to fit (docs/embedding.md): one message whenever the height changes, at most
// one per frame, posted only when the page is in a frame. The height is not secret, so any
// parent may read it (targetOrigin '*'); the message carries nothing else but the figure's id.
import { HEIGHT_MESSAGE } from '../share/embed-code.js';

/**
 * Starts reporting the height of `win`'s document to its parent.
 * @param {Window} win
 * @param {string} figure the slide id of the figure shown ('' when none is)
 * @returns {boolean} whether it reports (false when the page is not framed)
 */
export function reportHeight(win, figure) {
  if (win.parent === win) return false;
  const body = win.document.body;
  let frame = 0;
  let sent = -1;
  const send = () => {
    frame = 0;
    const height = Math.ceil(body.getBoundingClientRect().height);
    if (height === sent) return;
    sent = height;
    win.parent.postMessage({ type: HEIGHT_MESSAGE, height, figure }, '*');
  };
  // A widget redraws in several steps as the learner types: one message once they have settled.
  new ResizeObserver(() => {
    frame ||= win.requestAnimationFrame(send);
  }).observe(body);
  return true;
}
