// What the Transformer's encoder does with a split's sentences, from the trace its translations
// carry (Translation.encoder, web/src/engine/index.d.ts): averaged over every English token, each
// stage's size of the residual stream and its cosine with the token's input, and each sublayer's
// sizes of what it reads and writes; how much the sizes differ between the tokens of one
// sentence, for the stream entering a sublayer and for what the sublayer reads after its layer
// norm; and for each self-attention head, how often a token's largest weight falls on the token
// before it, on itself and on the token after it. report.js --model transformer writes it into
// the report (`encoder`), and the encoder's figures show it beside the sentence the learner types.

import { largestInRow } from '../../web/src/engine/translator.js';

/**
 * @typedef {object} EncoderHeadShares
 * @property {number} layer from 0
 * @property {number} head from 0
 * @property {number} previous the share of tokens after the first whose largest weight falls on
 *   the token before them
 * @property {number} self the share of every token whose largest weight falls on itself
 * @property {number} next the share of tokens before the last whose largest weight falls on the
 *   token after them
 */

/**
 * @typedef {object} EncoderStats
 * @property {number} sentences
 * @property {number} tokens
 * @property {{ streamRms: number, inputCosine: number }[]} stages (2 layers + 1) the input, then
 *   after each attention and feed-forward sublayer in turn: the means over every token
 * @property {{ readRms: number, writeRms: number, streamSpread: number, readSpread: number }[]}
 *   sublayers (2 layers): the means over every token of the sizes read and written, and the mean
 *   over sentences of two or more tokens of the coefficient of variation (standard deviation
 *   over mean) across a sentence's tokens of the stream entering the sublayer and of what it reads
 * @property {EncoderHeadShares[]} heads every layer's heads, layer-major
 */

/**
 * The coefficient of variation of `values`: their population standard deviation over their mean.
 * @param {ArrayLike<number>} values at least one, with a mean above 0
 */
export function spread(values) {
  const n = values.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i];
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i] - mean) ** 2;
  return Math.sqrt(squares / n) / mean;
}

/**
 * @param {{ n: number, encoder: import('../../web/src/engine/index.js').EncoderTrace }[]} traces
 *   one per sentence: its token count and its translation's encoder trace
 * @param {(x: number) => number} [round] applied to every mean and share written
 * @returns {EncoderStats}
 */
export function encoderStats(traces, round = (x) => x) {
  if (traces.length === 0) throw new Error('encoderStats: no sentence to measure');
  const layers = traces[0].encoder.layers;
  const stageCount = 2 * layers + 1;
  const stages = Array.from({ length: stageCount }, () => ({ stream: 0, cosine: 0 }));
  const sublayers = Array.from({ length: 2 * layers }, () => ({
    read: 0,
    write: 0,
    streamSpread: 0,
    readSpread: 0,
  }));
  const maps = layers * traces[0].encoder.heads;
  const heads = Array.from({ length: maps }, () => ({ previous: 0, self: 0, next: 0 }));
  let tokens = 0;
  let spreadSentences = 0;
  for (const { n, encoder } of traces) {
    if (encoder.layers !== layers) throw new Error('encoderStats: the traces differ in layers');
    tokens += n;
    const row = (/** @type {Float32Array} */ values, /** @type {number} */ r) =>
      values.subarray(r * n, (r + 1) * n);
    for (let s = 0; s < stageCount; s++) {
      for (let i = 0; i < n; i++) {
        stages[s].stream += encoder.streamRms[s * n + i];
        stages[s].cosine += encoder.inputCosine[s * n + i];
      }
    }
    for (let k = 0; k < 2 * layers; k++) {
      for (let i = 0; i < n; i++) {
        sublayers[k].read += encoder.readRms[k * n + i];
        sublayers[k].write += encoder.writeRms[k * n + i];
      }
      if (n >= 2) {
        sublayers[k].streamSpread += spread(row(encoder.streamRms, k));
        sublayers[k].readSpread += spread(row(encoder.readRms, k));
      }
    }
    if (n >= 2) spreadSentences++;
    for (let k = 0; k < maps; k++) {
      const weights = encoder.weights.subarray(k * n * n, (k + 1) * n * n);
      for (let i = 0; i < n; i++) {
        const at = largestInRow(weights, n, i).column;
        if (at === i - 1) heads[k].previous++;
        if (at === i) heads[k].self++;
        if (at === i + 1) heads[k].next++;
      }
    }
  }
  const headCount = traces[0].encoder.heads;
  const perSentence = Math.max(1, spreadSentences);
  return {
    sentences: traces.length,
    tokens,
    stages: stages.map(({ stream, cosine }) => ({
      streamRms: round(stream / tokens),
      inputCosine: round(cosine / tokens),
    })),
    sublayers: sublayers.map(({ read, write, streamSpread, readSpread }) => ({
      readRms: round(read / tokens),
      writeRms: round(write / tokens),
      streamSpread: round(streamSpread / perSentence),
      readSpread: round(readSpread / perSentence),
    })),
    heads: heads.map(({ previous, self, next }, k) => ({
      layer: Math.floor(k / headCount),
      head: k % headCount,
      previous: round(previous / Math.max(1, tokens - traces.length)),
      self: round(self / tokens),
      next: round(next / Math.max(1, tokens - traces.length)),
    })),
  };
}
