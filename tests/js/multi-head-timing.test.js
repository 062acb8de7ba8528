// The multi-head widget's step timing: each step becomes a performance measure named after it,
// only the latest of each name stays in the buffer, and the step's value (or error) passes through.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { timed } from '../../web/src/widgets/multi-head/timing.js';

const measures = (name) => performance.getEntriesByName(`multi-head ${name}`, 'measure');

test('a step returns its value and is measured under its name', () => {
  const before = performance.now();
  assert.equal(
    timed('sum', () => [1, 2, 3].reduce((a, b) => a + b)),
    6,
  );
  const [entry] = measures('sum');
  assert.ok(entry.startTime >= before, 'it starts when the step starts');
  assert.ok(entry.duration >= 0 && entry.startTime + entry.duration <= performance.now());
});

test('only the latest measure of a name is kept', () => {
  for (let i = 0; i < 5; i++) timed('again', () => i);
  assert.equal(measures('again').length, 1);
  timed('other', () => 0);
  assert.equal(measures('again').length, 1, 'other names do not clear it');
  assert.equal(measures('other').length, 1);
});

test('a step that throws is still measured, and its error passes through', () => {
  assert.throws(
    () =>
      timed('fails', () => {
        throw new Error('no');
      }),
    /no/,
  );
  assert.equal(measures('fails').length, 1);
});
