// What a figure whose run in the training worker outlives it (training/, training-speed/) does
// as it comes and goes: taken down, or scrolled out of sight in the article, it pauses a running
// run, which goes on when the figure is back, as leaving and coming back to a slide does.

/** @typedef {import('../../train/client.js').Session} Session */

/**
 * A running run pauses, to go on when its figure is back.
 * @param {Session | null | undefined} session
 */
export function pauseForReturn(session) {
  if (session && session.history.status === 'running') {
    session.pause();
    session.resumeOnReturn = true;
  }
}

/**
 * A run paused as its figure went goes on.
 * @param {Session | null | undefined} session
 */
export function resumeOnReturn(session) {
  if (session?.resumeOnReturn) {
    session.resumeOnReturn = false;
    session.start();
  }
}

/**
 * Pauses the figure's run while the figure is out of sight and resumes it when it is back. Out
 * of sight: neither its controls nor its output shows (the root itself has no box in the deck).
 * @param {HTMLElement} root the widget's root, whose split-controls and split-output are watched
 * @param {() => Session | null} current the run the figure shows now
 * @returns {IntersectionObserver | null} disconnect it when the figure is taken down; null where
 *   the browser has no IntersectionObserver
 */
export function pauseOutOfSight(root, current) {
  if (typeof IntersectionObserver !== 'function') return null;
  const targets = [...root.querySelectorAll(':scope > .split-controls, :scope > .split-output')];
  const showing = new Map(targets.map((target) => [target, true]));
  const visibility = new IntersectionObserver((entries) => {
    for (const entry of entries) showing.set(entry.target, entry.isIntersecting);
    const session = current();
    if (!session) return;
    if ([...showing.values()].some(Boolean)) resumeOnReturn(session);
    else pauseForReturn(session);
  });
  for (const target of targets) visibility.observe(target);
  return visibility;
}
