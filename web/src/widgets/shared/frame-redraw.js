// One redraw per animation frame for widgets that redraw as the learner types: however many input
// events arrive between two frames, the figure is drawn once, at the start of the next frame, from
// the latest inputs. (Drawing in the input listener instead delays the frame: the browser starts
// it only once the listener has returned.)

/**
 * @typedef {object} FrameRedraw
 * @property {() => void} request asks for a redraw in the next frame (one however often asked)
 * @property {() => void} now redraws at once, dropping a redraw asked for
 * @property {() => boolean} cancel drops a redraw asked for; true when there was one
 */

/**
 * @param {() => void} redraw reads the inputs and draws the figure
 * @returns {FrameRedraw}
 */
export function frameRedraw(redraw) {
  let frame = 0;
  const cancel = () => {
    if (!frame) return false;
    cancelAnimationFrame(frame);
    frame = 0;
    return true;
  };
  return {
    request() {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        redraw();
      });
    },
    now() {
      cancel();
      redraw();
    },
    cancel,
  };
}
