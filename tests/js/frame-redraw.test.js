// One redraw per animation frame (web/src/widgets/shared/frame-redraw.js): any number of requests
// between two frames make one redraw in the next frame; `now` redraws at once and drops the
// request; `cancel` drops it and says whether there was one. The frames are played by hand.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';

import { frameRedraw } from '../../web/src/widgets/shared/frame-redraw.js';

/** @type {Map<number, () => void>} the callbacks waiting for the next frame */
let waiting;
let nextId;

beforeEach(() => {
  waiting = new Map();
  nextId = 1;
  globalThis.requestAnimationFrame = (callback) => {
    const id = nextId++;
    waiting.set(id, () => callback(0));
    return id;
  };
  globalThis.cancelAnimationFrame = (id) => waiting.delete(id);
});

afterEach(() => {
  delete globalThis.requestAnimationFrame;
  delete globalThis.cancelAnimationFrame;
});

/** Runs the callbacks waiting for the next frame, as the browser does before painting it. */
function frame() {
  const due = [...waiting.values()];
  waiting.clear();
  due.forEach((run) => run());
}

test('many requests before a frame make one redraw, in that frame', () => {
  let redraws = 0;
  const redraw = frameRedraw(() => redraws++);
  redraw.request();
  redraw.request();
  redraw.request();
  assert.equal(redraws, 0, 'nothing is drawn before the frame');
  frame();
  assert.equal(redraws, 1);
  frame();
  assert.equal(redraws, 1, 'a frame without a request draws nothing');
  redraw.request();
  frame();
  assert.equal(redraws, 2, 'the next request is drawn in the next frame');
});

test('the redraw reads the latest input', () => {
  let input = 'a';
  const drawn = [];
  const redraw = frameRedraw(() => drawn.push(input));
  for (const typed of ['b', 'c', 'd']) {
    input = typed;
    redraw.request();
  }
  frame();
  assert.deepEqual(drawn, ['d']);
});

test('now redraws at once and drops the request; cancel drops it and says so', () => {
  let redraws = 0;
  const redraw = frameRedraw(() => redraws++);
  redraw.request();
  redraw.now();
  assert.equal(redraws, 1);
  frame();
  assert.equal(redraws, 1, 'the request was dropped');
  assert.equal(redraw.cancel(), false, 'nothing to cancel');
  redraw.request();
  assert.equal(redraw.cancel(), true);
  frame();
  assert.equal(redraws, 1, 'the cancelled request is never drawn');
});
