// One redraw per frame for widgets that redraw as the learner types: however many input events
// arrive before it, the figure is drawn once, from the latest inputs. Drawing in the input
// listener instead delays the frame: the browser starts it only once the listener has returned.
//
// Two moments to draw in:
// - 'frame': at the start of the next animation frame, so the figure is painted in the frame that
//   shows the keystroke. For a redraw that fits in a frame beside the key's own work.
// - 'after-paint': in a task posted from that frame's animation callback, which runs once the
//   frame is painted; the figure is painted in the frame after. The frame that shows the
//   keystroke carries none of the redraw, so typing answers as fast as in a plain text box, for a
//   redraw too long to share a frame with the key (the trained language model's).

/**
 * @typedef {object} FrameRedraw
 * @property {() => void} request asks for a redraw at the chosen moment (one however often asked)
 * @property {() => void} now redraws at once, dropping a redraw asked for
 * @property {() => boolean} cancel drops a redraw asked for; true when there was one
 */

/**
 * @param {() => void} redraw reads the inputs and draws the figure
 * @param {'frame' | 'after-paint'} [when] the moment a request draws in
 * @returns {FrameRedraw}
 */
export function frameRedraw(redraw, when = 'frame') {
  let frame = 0;
  // A redraw posted from a frame's callback, not run yet: its task cannot be taken back, so
  // cancelling only clears this.
  let posted = false;
  /** @type {MessagePort | null} */
  let port = null;
  const run = () => {
    if (!posted) return;
    posted = false;
    redraw();
  };
  const afterPaint = () => {
    if (!port) {
      const channel = new MessageChannel();
      channel.port1.onmessage = run;
      port = channel.port2;
    }
    posted = true;
    port.postMessage(null);
  };
  const cancel = () => {
    const pending = frame !== 0 || posted;
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    posted = false;
    return pending;
  };
  return {
    request() {
      if (frame || posted) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (when === 'after-paint') afterPaint();
        else redraw();
      });
    },
    now() {
      cancel();
      redraw();
    },
    cancel,
  };
}
