// What the report says the Transformer's encoder does (tools/translation/encoder-trace.js), on
// traces made by hand (of numbers a Float32Array holds exactly), whose means, spreads and head
// shares are worked out here by other arithmetic; and the trace a real translation carries: its shapes, its rows of weights, and the
// sizes and cosines it holds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadTranslator } from 'attention-lab';
import { encoderStats, spread } from '../../tools/translation/encoder-trace.js';
import { rowSums } from './helpers.js';

/**
 * A one-layer, one-head trace of n tokens.
 * @param {number[][]} weights (n, n)
 * @param {{ stream: number[][], cosine: number[][], read: number[][], write: number[][] }} rows
 *   stream and cosine (3, n), read and write (2, n)
 */
function trace(weights, { stream, cosine, read, write }) {
  return {
    n: weights.length,
    encoder: {
      layers: 1,
      heads: 1,
      weights: Float32Array.from(weights.flat()),
      streamRms: Float32Array.from(stream.flat()),
      inputCosine: Float32Array.from(cosine.flat()),
      readRms: Float32Array.from(read.flat()),
      writeRms: Float32Array.from(write.flat()),
    },
  };
}

describe('the encoder stats of the report', () => {
  test('a spread is the standard deviation over the mean', () => {
    assert.equal(spread([2, 2, 2]), 0);
    // Mean 2, deviations -1 and 1: a standard deviation of 1.
    assert.equal(spread([1, 3]), 0.5);
  });

  // Two sentences: three tokens whose head looks at the token before (the first at itself), and
  // one token.
  const previous = trace(
    [
      [1, 0, 0],
      [0.9, 0.1, 0],
      [0, 0.8, 0.2],
    ],
    {
      stream: [
        [1, 2, 3],
        [2, 2, 2],
        [3, 3, 3],
      ],
      cosine: [
        [1, 1, 1],
        [0.5, 0.5, 0.5],
        [0.25, 0.25, 0.25],
      ],
      read: [
        [1, 1, 1],
        [1, 1, 4],
      ],
      write: [
        [1, 1, 1],
        [2, 2, 2],
      ],
    },
  );
  const single = trace([[1]], {
    stream: [[5], [6], [7]],
    cosine: [[1], [0.75], [0.5]],
    read: [[1], [1]],
    write: [[4], [4]],
  });
  const stats = encoderStats([previous, single]);

  test('means over every token of the two sentences', () => {
    assert.equal(stats.sentences, 2);
    assert.equal(stats.tokens, 4);
    assert.deepEqual(
      stats.stages.map((s) => s.streamRms),
      [(1 + 2 + 3 + 5) / 4, (6 + 6) / 4, (9 + 7) / 4],
    );
    assert.deepEqual(
      stats.stages.map((s) => s.inputCosine),
      [1, (1.5 + 0.75) / 4, (0.75 + 0.5) / 4],
    );
    assert.deepEqual(
      stats.sublayers.map((s) => [s.readRms, s.writeRms]),
      [
        [1, 7 / 4],
        [7 / 4, 10 / 4],
      ],
    );
  });

  test('spreads over the sentences of two tokens or more, of the stream entering and of the read', () => {
    // Entering the attention the stream is 1, 2, 3; entering the feed-forward sublayer 2, 2, 2.
    assert.equal(stats.sublayers[0].streamSpread, Math.sqrt(2 / 3) / 2);
    assert.equal(stats.sublayers[1].streamSpread, 0);
    assert.equal(stats.sublayers[0].readSpread, 0);
    assert.equal(stats.sublayers[1].readSpread, Math.sqrt(2) / 2);
  });

  test('where the head looks: the token before, itself, the token after', () => {
    // Tokens after the first: 2 of 2 on the one before; every token: 2 of 4 on itself (the first
    // token of each sentence); tokens before the last: none on the one after.
    assert.deepEqual(stats.heads, [{ layer: 0, head: 0, previous: 1, self: 0.5, next: 0 }]);
  });

  test('no sentence is a clear error', () => {
    assert.throws(() => encoderStats([]), /no sentence to measure/);
  });
});

describe('the trace a Transformer translation carries', async () => {
  const transformer = await loadTranslator({ model: 'transformer' });
  const { transformer: sizes } = /** @type {any} */ (transformer.info);
  const translation = transformer.translate('The tired animal did not cross the street.');
  const encoder = /** @type {import('../../web/src/engine/index.js').EncoderTrace} */ (
    translation.encoder
  );
  const n = translation.source.length;

  test('every encoder layer and head, and every stage and sublayer, for each English token', () => {
    assert.equal(encoder.layers, sizes.encoderLayers);
    assert.equal(encoder.heads, sizes.heads);
    assert.equal(encoder.weights.length, encoder.layers * encoder.heads * n * n);
    assert.equal(encoder.streamRms.length, (2 * encoder.layers + 1) * n);
    assert.equal(encoder.inputCosine.length, (2 * encoder.layers + 1) * n);
    assert.equal(encoder.readRms.length, 2 * encoder.layers * n);
    assert.equal(encoder.writeRms.length, 2 * encoder.layers * n);
  });

  test('each head’s row is a distribution over the sentence', () => {
    for (const sum of rowSums(encoder.weights, encoder.layers * encoder.heads * n, n)) {
      assert.ok(Math.abs(sum - 1) < 1e-5, `a row adds up to ${sum}`);
    }
  });

  test('sizes above 0, the input\u2019s cosine with itself 1, every cosine within [-1, 1]', () => {
    for (const value of [...encoder.streamRms, ...encoder.readRms, ...encoder.writeRms]) {
      assert.ok(value > 0);
    }
    for (let i = 0; i < n; i++) assert.ok(Math.abs(encoder.inputCosine[i] - 1) < 1e-5);
    for (const value of encoder.inputCosine) assert.ok(Math.abs(value) <= 1 + 1e-6);
  });

  test('lesson 1’s recurrent translators carry none', async () => {
    const attention = await loadTranslator();
    assert.equal(attention.translate('The cat sat.').encoder, undefined);
  });
});
