// The heatmap view's pure parts: when a grid is drawn as a picture (one pixel per cell) rather
// than an element per cell, how a masked value and a picture are named, and the picture itself:
// a 32-bit BMP whose pixels follow the cells (bottom row first), on a colour scale mixed in Oklab
// from its three stops, masked cells in their own colour, its data URL. The drawing, the pointer
// and the keys are checked in the browser (tests/e2e/multi-head, page, attention-steps).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  axisNames,
  describe as describeCell,
  pictureName,
} from '../../web/src/views/heatmap/format.js';
import { isDense, layout } from '../../web/src/views/heatmap/layout.js';
import { gridHeight } from '../../web/src/views/heatmap/index.js';
import { legendKey } from '../../web/src/views/heatmap/legend.js';
import { bitmap, bitmapUrl, paint, scale, word } from '../../web/src/views/heatmap/pixels.js';

const labels = (n, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** @param {number} rows @param {number} cols @param {object} [extra] @param {number} [width] */
function dense(rows, cols, extra = {}, width = 470) {
  const data = { rowLabels: labels(rows), colLabels: labels(cols, 'f'), ...extra };
  return isDense(layout(data, width), rows, cols, data.picture);
}

describe('which grids are pictures', () => {
  test('small grids keep an element per cell', () => {
    assert.equal(dense(13, 13), false, 'the title slide’s sentence');
    assert.equal(dense(32, 32), false, '1024 cells, the most with an element each');
    assert.equal(dense(10, 100, { compact: true }), false, '1000 cells, narrow but tall rows');
    assert.equal(dense(11, 11, { compact: true, labels: false }, 160), false, 'a head, 11 tokens');
  });

  test('large grids, or cells too small to point at, are pictures', () => {
    assert.equal(dense(33, 33), true, 'past 1024 cells');
    assert.equal(dense(64, 64), true);
    assert.equal(dense(11, 100, { compact: true }), true, 'the multi-head output');
    assert.equal(dense(12, 12, { compact: true, labels: false }, 40), true, 'cells of 2 px');
  });

  test('the height a grid takes is worked out from its width', () => {
    const data = { rowLabels: labels(12), colLabels: labels(12), compact: false };
    for (let width = 150; width <= 600; width += 7) {
      const box = layout(data, width);
      const height = box.width > width ? (box.height * width) / box.width : box.height;
      assert.equal(gridHeight(data, width), height, `at ${width} px`);
    }
    assert.ok(gridHeight(data, 600) > gridHeight(data, 150), 'a wider box gets larger cells');
  });

  test('a grid that asks for a picture is one at any size', () => {
    assert.equal(dense(2, 2, { picture: true }), true);
    assert.equal(dense(11, 11, { compact: true, labels: false, picture: true }, 160), true);
    assert.equal(dense(11, 11, { compact: true, labels: false, picture: false }, 160), false);
  });
});

describe('names', () => {
  const names = axisNames({ rowName: 'query', colName: 'key', valueName: 'score' });

  test('a masked cell is named with its masked text, 0 unless the data says otherwise', () => {
    assert.equal(
      describeCell(names, undefined, 'a', 'b', -Infinity, true),
      'query “a” to key “b”: masked, score 0',
    );
    const minus = axisNames({
      rowName: 'query',
      colName: 'key',
      valueName: 'score',
      maskedText: '−∞',
    });
    assert.equal(
      describeCell(minus, undefined, 'a', 'b', -Infinity, true),
      'query “a” to key “b”: masked, score −∞',
    );
    assert.equal(
      describeCell(minus, 'Step 3', 'a', 'b', 0.25, false),
      'Step 3: query “a” to key “b”: score 0.250',
    );
  });

  test('a picture says what it shows, where the numbers are and how to read it', () => {
    const name = pictureName({
      caption: 'Head 2 of 10: attention weights.',
      rowLabels: labels(64),
      colLabels: labels(64),
    });
    assert.match(name, /^Head 2 of 10: attention weights\. A picture of 64 by 64 weights;/);
    assert.match(name, /the table has the numbers/);
    assert.match(name, /arrow keys/);
  });

  test('the legend is drawn again when its range, names or masked cells change', () => {
    const base = { range: /** @type {[number, number]} */ ([0, 1]), valueName: 'score' };
    assert.equal(legendKey(base), legendKey({ ...base }));
    assert.notEqual(legendKey(base), legendKey({ ...base, range: [0, 0.5] }));
    assert.notEqual(legendKey(base), legendKey({ ...base, masked: [true] }));
    const masked = { ...base, masked: [true] };
    assert.notEqual(legendKey(masked), legendKey({ ...masked, maskedText: '−∞' }));
  });
});

describe('the picture', () => {
  /** @param {number} w @returns {number[]} r, g, b of a pixel */
  const rgb = (w) => [(w >>> 16) & 255, (w >>> 8) & 255, w & 255];

  test('the scale runs from its low stop through the middle one to the high one', () => {
    const [low, mid, high] = [
      [238, 243, 250],
      [110, 159, 216],
      [20, 47, 107],
    ];
    const words = scale(low, mid, high);
    assert.equal(words.length, 1024);
    assert.deepEqual(rgb(words[0]), low);
    assert.deepEqual(rgb(words[1023]), high);
    // The middle stop sits half way, between two steps.
    for (const c of [0, 1, 2]) {
      assert.ok(Math.abs(rgb(words[511])[c] - mid[c]) <= 2);
      assert.ok(Math.abs(rgb(words[512])[c] - mid[c]) <= 2);
    }
    // Darker all the way, as a sequential scale should be.
    const light = (w) => rgb(w).reduce((a, b) => a + b, 0);
    for (let s = 1; s < 1024; s++)
      assert.ok(light(words[s]) <= light(words[s - 1]) + 1, `step ${s}`);
  });

  test('a BMP file of 32-bit pixels, one per cell, the bottom row first', () => {
    const image = bitmap(2, 3);
    const view = new DataView(image.bytes.buffer);
    assert.equal(String.fromCharCode(image.bytes[0], image.bytes[1]), 'BM');
    assert.equal(view.getUint32(2, true), image.bytes.length, 'file size');
    assert.equal(view.getUint32(10, true), 56, 'where the pixels start');
    assert.deepEqual([view.getInt32(18, true), view.getInt32(22, true)], [3, 2], 'width, height');
    assert.deepEqual([view.getUint16(28, true), view.getUint32(30, true)], [32, 0], '32 bits, raw');
    assert.equal(image.bytes.length, 56 + 4 * 2 * 3);

    const words = Uint32Array.from({ length: 1024 }, (_, s) => word([s >> 2, 0, 255 - (s >> 2)]));
    const palette = { words, maskedWord: word([1, 2, 3]) };
    const values = [0, 0.5, 1, 2, -1, NaN];
    paint(image, values, [false, false, false, false, false, false], [0, 1], palette);
    const pixel = (i, j) => {
      const at = 56 + 4 * ((1 - i) * 3 + j); // rows go bottom-up
      return Array.from(image.bytes.subarray(at, at + 4));
    };
    assert.deepEqual(pixel(0, 0), [255, 0, 0, 255], 'value 0: the low end (blue, green, red, 255)');
    assert.deepEqual(pixel(0, 2), [0, 0, 255, 255], 'value 1: the high end');
    assert.deepEqual(pixel(0, 1), [127, 0, 128, 255], 'value 0.5: step 512 of 1023');
    assert.deepEqual(pixel(1, 0), pixel(0, 2), 'above the range: clamped to the high end');
    assert.deepEqual(pixel(1, 1), pixel(0, 0), 'below the range: clamped to the low end');
    assert.deepEqual(pixel(1, 2), pixel(0, 0), 'no number: the low end');

    paint(image, values, [false, true, false, false, false, true], [0, 1], palette);
    assert.deepEqual(pixel(0, 1), [3, 2, 1, 255], 'a masked cell has the masked colour');
    assert.deepEqual(pixel(1, 2), [3, 2, 1, 255]);
    assert.deepEqual(pixel(0, 0), [255, 0, 0, 255], 'the others keep theirs');
  });

  test('its data URL holds the file', () => {
    const image = bitmap(3, 5);
    paint(
      image,
      Array.from({ length: 15 }, (_, k) => k / 14),
      undefined,
      [0, 1],
      {
        words: Uint32Array.from({ length: 1024 }, (_, s) => word([s & 255, 7, 9])),
        maskedWord: 0,
      },
    );
    const url = bitmapUrl(image);
    assert.match(url, /^data:image\/bmp;base64,/);
    const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    assert.deepEqual(new Uint8Array(bytes), image.bytes);
  });
});
