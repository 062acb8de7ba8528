// One redraw per frame (web/src/widgets/shared/frame-redraw.js): any number of requests between
// two frames make one redraw, in the next frame or, 'after-paint', in the task that frame posts;
// `now` redraws at once and drops the request; `cancel` drops it and says whether there was one.
// The frames and the posted tasks are played by hand.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';

import { frameRedraw } from '../../web/src/widgets/shared/frame-redraw.js';

/** @type {Map<number, () => void>} the callbacks waiting for the next frame */
let waiting;
let nextId;
/** @type {(() => void)[]} the messages posted, waiting for their tasks */
let posted;

beforeEach(() => {
  waiting = new Map();
  nextId = 1;
  posted = [];
  globalThis.MessageChannel = class {
    constructor() {
      /** @type {{ onmessage: (() => void) | null }} */
      this.port1 = { onmessage: null };
      this.port2 = { postMessage: () => posted.push(() => this.port1.onmessage?.()) };
    }
  };
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
  delete globalThis.MessageChannel;
});

/** Runs the tasks of the messages posted so far, as the browser does once a frame is painted. */
function tasks() {
  posted.splice(0).forEach((run) => run());
}

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

test('after-paint: the frame posts the redraw, which runs once that frame is painted', () => {
  let input = 'a';
  const drawn = [];
  const redraw = frameRedraw(() => drawn.push(input), 'after-paint');
  redraw.request();
  input = 'b';
  redraw.request();
  frame();
  assert.deepEqual(drawn, [], 'nothing is drawn in the frame that shows the keystroke');
  input = 'c';
  redraw.request();
  assert.equal(waiting.size, 0, 'a request while the redraw is posted asks for no frame');
  tasks();
  assert.deepEqual(drawn, ['c'], 'one redraw, of the latest input');
  tasks();
  frame();
  assert.deepEqual(drawn, ['c'], 'nothing more without a request');
  redraw.request();
  frame();
  tasks();
  assert.deepEqual(drawn, ['c', 'c'], 'the next request is drawn after the next frame');
});

test('after-paint: now and cancel drop a posted redraw', () => {
  let redraws = 0;
  const redraw = frameRedraw(() => redraws++, 'after-paint');
  redraw.request();
  frame();
  redraw.now();
  assert.equal(redraws, 1, 'now draws at once');
  tasks();
  assert.equal(redraws, 1, 'the posted redraw was dropped');
  redraw.request();
  frame();
  assert.equal(redraw.cancel(), true, 'a posted redraw is there to cancel');
  tasks();
  assert.equal(redraws, 1, 'the cancelled redraw is never drawn');
  assert.equal(redraw.cancel(), false, 'nothing left to cancel');
});
