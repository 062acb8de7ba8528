// The words and numbers of the transformer widget's two views inside its encoder, worked out from
// a translation's encoder trace (Translation.encoder) and from what the report measured on the
// test split (info.encoderStats): `encoder` draws one self-attention head, `stream` the residual
// stream of every English word at every stage, by one of four measures. Pure functions, so tests
// check them without a page.
import { headKey, headName } from './text.js';

/** The stream view's measures: the stream's size, what each sublayer reads and writes, and how
 * much of each word's input the stream still points along. */
export const MEASURES = Object.freeze(['size', 'read', 'write', 'kept']);

/** @typedef {'size' | 'read' | 'write' | 'kept'} Measure */

/** How each measure is offered, as a choice. */
export const MEASURE_LABELS = Object.freeze({
  size: 'Stream size',
  read: 'Sublayer reads',
  write: 'Sublayer adds',
  kept: 'Input kept',
});

/**
 * @typedef {import('../../engine/index.js').TranslatorInfo} TranslatorInfo
 * @typedef {import('../../engine/index.js').EncoderTrace} EncoderTrace
 * @typedef {{ previous: number, self: number, next: number }} HeadShares
 * @typedef {{ key: string, label: string, layer: number, head: number,
 *   shares: HeadShares | null }} EncoderHead
 */

/** What each share counts, as a head's tag and its facts name it. */
const SHARE_NAMES = Object.freeze({
  previous: 'the word before',
  self: 'the word itself',
  next: 'the word after',
});

/**
 * @param {unknown} value what the state, a link or the slide gives
 * @returns {Measure} that measure, else the stream's size
 */
export function measureOf(value) {
  return MEASURES.includes(/** @type {string} */ (value)) ? /** @type {Measure} */ (value) : 'size';
}

/**
 * Every encoder layer's self-attention heads, layer-major, keyed as the decoder's are
 * ('layer.head', from 1), each with where its largest weights fell on the test split (the
 * report's, else null).
 * @param {TranslatorInfo} info the Transformer's
 * @returns {EncoderHead[]}
 */
export function encoderHeadChoices(info) {
  const sizes = info.transformer;
  if (!sizes) return [];
  const measured = info.encoderStats?.heads ?? [];
  return Array.from({ length: sizes.encoderLayers * sizes.heads }, (_, k) => {
    const layer = Math.floor(k / sizes.heads);
    const head = k % sizes.heads;
    const found = measured.find((m) => m.layer === layer && m.head === head);
    const shares = found ? { previous: found.previous, self: found.self, next: found.next } : null;
    return { key: headKey(layer, head), label: headName(layer, head), layer, head, shares };
  });
}

/**
 * The largest of a head's three shares, as its choice shows it: e.g. '0.91 word before'.
 * @param {HeadShares | null} shares
 * @returns {string} '' without shares
 */
export function headTag(shares) {
  if (!shares) return '';
  const names = /** @type {(keyof HeadShares)[]} */ (['previous', 'self', 'next']);
  const most = names.reduce((a, b) => (shares[b] > shares[a] ? b : a));
  return `${shares[most].toFixed(2)} ${SHARE_NAMES[most].replace('the ', '')}`;
}

/**
 * Where the chosen head's largest weights fell on the test split, or what the figure is when
 * the report measured no heads.
 * @param {TranslatorInfo} info the Transformer's
 * @param {EncoderHead} head
 * @returns {string}
 */
export function encoderHeadFactsText(info, head) {
  const measured = info.encoderStats;
  if (!head.shares || !measured) {
    return 'Every word reads every word of its sentence, itself included, with no mask.';
  }
  const percent = (/** @type {number} */ x) => `${Math.round(x * 100)}%`;
  const { previous, self, next } = head.shares;
  return (
    `${head.label.charAt(0).toUpperCase()}${head.label.slice(1)} on the ` +
    `${measured.sentences.toLocaleString('en')} test sentences ` +
    `(${measured.tokens.toLocaleString('en')} words): its largest weight falls on ` +
    `${SHARE_NAMES.previous} for ${percent(previous)} of words, on ${SHARE_NAMES.self} for ` +
    `${percent(self)}, on ${SHARE_NAMES.next} for ${percent(next)}; elsewhere for the rest.`
  );
}

/**
 * @param {unknown} value what the state, a link or the slide gives
 * @param {EncoderHead[]} choices
 * @returns {string} that head's key if there is one, else the first head's
 */
export function encoderHeadOf(value, choices) {
  return (choices.find((choice) => choice.key === value) ?? choices[0])?.key ?? '1.1';
}

/**
 * One encoder head's weights, English words (rows: the queries) over English words (columns).
 * @param {EncoderTrace} encoder
 * @param {number} n English tokens
 * @param {EncoderHead} head
 * @returns {Float32Array} (n, n), each row adding up to 1
 */
export function encoderHeadRows(encoder, n, head) {
  const start = (head.layer * encoder.heads + head.head) * n * n;
  return encoder.weights.subarray(start, start + n * n);
}

/**
 * The stages of the residual stream as the figure's columns name them: the input, then after each
 * sublayer ('+ attn 1', '+ FFN 1', ...).
 * @param {number} layers
 * @returns {string[]} (2 layers + 1)
 */
export function stageNames(layers) {
  return ['input', ...sublayerColumns(layers).map((name) => `+ ${name}`)];
}

/**
 * The sublayers as the figure's columns name them, short enough for a column's head.
 * @param {number} layers
 * @returns {string[]} (2 layers) 'attn 1', 'FFN 1', 'attn 2', ...
 */
export function sublayerColumns(layers) {
  return Array.from({ length: 2 * layers }, (_, k) =>
    k % 2 === 0 ? `attn ${k / 2 + 1}` : `FFN ${(k - 1) / 2 + 1}`,
  );
}

/**
 * @param {number} layers
 * @returns {string[]} (2 layers) 'attention 1', 'feed-forward 1', 'attention 2', ...
 */
export function sublayerNames(layers) {
  return Array.from({ length: 2 * layers }, (_, k) =>
    k % 2 === 0 ? `attention ${k / 2 + 1}` : `feed-forward ${(k - 1) / 2 + 1}`,
  );
}

/**
 * Rows `first` .. `last` of a (rows, n) stage- or sublayer-major array, as (n, columns): a word
 * a row, as the heatmap draws it.
 * @param {Float32Array} values (rows, n)
 * @param {number} n
 * @returns {Float32Array} (n, rows)
 */
function byWord(values, n) {
  const rows = values.length / n;
  const out = new Float32Array(n * rows);
  for (let r = 0; r < rows; r++) for (let i = 0; i < n; i++) out[i * rows + r] = values[r * n + i];
  return out;
}

/**
 * @param {ArrayLike<number>} values
 * @returns {number}
 */
function largest(values) {
  let most = 0;
  for (let i = 0; i < values.length; i++) most = Math.max(most, values[i]);
  return most;
}

/**
 * What the stream view draws for a measure: a word a row, a stage or sublayer a column.
 * Sizes (the stream's, and what a sublayer reads or adds) share one scale, from 0 to the largest
 * of them in the sentence, so that switching measures compares them; cosines run from 0 to 1, or
 * from -1 when one is below 0.
 * @param {EncoderTrace} encoder
 * @param {number} n English tokens
 * @param {Measure} measure
 * @returns {{ values: Float32Array, columns: string[], range: [number, number],
 *   valueName: string }}
 */
export function streamMatrix(encoder, n, measure) {
  const { layers } = encoder;
  if (measure === 'kept') {
    const values = byWord(encoder.inputCosine, n);
    const negative = values.some((value) => value < 0);
    return {
      values,
      columns: stageNames(layers),
      range: [negative ? -1 : 0, 1],
      valueName: 'cosine with its input',
    };
  }
  const top = Math.max(
    largest(encoder.streamRms),
    largest(encoder.readRms),
    largest(encoder.writeRms),
  );
  const range = /** @type {[number, number]} */ ([0, top > 0 ? top : 1]);
  if (measure === 'size') {
    return {
      values: byWord(encoder.streamRms, n),
      columns: stageNames(layers),
      range,
      valueName: 'size (root mean square)',
    };
  }
  return {
    values: byWord(measure === 'read' ? encoder.readRms : encoder.writeRms, n),
    columns: sublayerColumns(layers),
    range,
    valueName: measure === 'read' ? 'size read, after the norm' : 'size added',
  };
}

/**
 * @param {number} x
 * @returns {string} to two places
 */
const two = (x) => x.toFixed(2);

/**
 * The smallest and largest of row r of a (rows, n) array.
 * @param {Float32Array} values
 * @param {number} n
 * @param {number} r
 */
function rangeOf(values, n, r) {
  const row = values.subarray(r * n, (r + 1) * n);
  return { low: Math.min(...row), high: Math.max(...row) };
}

/**
 * The mean of row r of a (rows, n) array.
 * @param {Float32Array} values
 * @param {number} n
 * @param {number} r
 */
function meanOf(values, n, r) {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[r * n + i];
  return sum / n;
}

/**
 * What the drawn measure shows on this sentence, in numbers.
 * @param {EncoderTrace} encoder
 * @param {number} n English tokens
 * @param {Measure} measure
 * @returns {string}
 */
export function streamLineText(encoder, n, measure) {
  const last = 2 * encoder.layers;
  const names = sublayerNames(encoder.layers);
  if (measure === 'size') {
    return (
      `On this sentence the stream\u2019s size averages ${two(meanOf(encoder.streamRms, n, 0))} ` +
      `at the input and ${two(meanOf(encoder.streamRms, n, last))} after both layers: each ` +
      'sublayer adds to it and none replaces it.'
    );
  }
  if (measure === 'read') {
    const stream = rangeOf(encoder.streamRms, n, 0);
    const read = rangeOf(encoder.readRms, n, 0);
    return (
      `On this sentence the words\u2019 streams entering ${names[0]} range from ` +
      `${two(stream.low)} to ${two(stream.high)} in size; what its layer norm hands it, from ` +
      `${two(read.low)} to ${two(read.high)}.`
    );
  }
  if (measure === 'write') {
    const each = names.map(
      (name, k) =>
        `${name} ${two(meanOf(encoder.writeRms, n, k))} ` +
        `(${two(meanOf(encoder.streamRms, n, k))})`,
    );
    return (
      'On this sentence each sublayer adds, on average (to a stream of): ' + `${each.join(', ')}.`
    );
  }
  const kept = rangeOf(encoder.inputCosine, n, last);
  const reading =
    kept.low >= KEPT
      ? 'each word\u2019s own vector is still in its stream, beside what the sublayers added.'
      : 'in some words\u2019 streams, what the sublayers added outweighs the word\u2019s own vector.';
  return (
    `After both layers the words\u2019 streams have a cosine of ${two(kept.low)} to ` +
    `${two(kept.high)} with their inputs on this sentence: ${reading}`
  );
}

/** The smallest cosine with the input at which the stream is said to keep the word's vector. */
const KEPT = 0.3;

/**
 * What the report measured for the drawn measure over the test split, or '' when it holds none.
 * @param {TranslatorInfo} info the Transformer's
 * @param {Measure} measure
 * @returns {string}
 */
export function streamFactsText(info, measure) {
  const measured = info.encoderStats;
  if (!measured) return '';
  const layers = (measured.stages.length - 1) / 2;
  const names = sublayerNames(layers);
  const on =
    `On the ${measured.sentences.toLocaleString('en')} test sentences ` +
    `(${measured.tokens.toLocaleString('en')} words)`;
  const percent = (/** @type {number} */ x) => `${Math.round(x * 100)}%`;
  if (measure === 'size') {
    const sizes = measured.stages.map((stage) => two(stage.streamRms));
    return `${on}, the stream\u2019s mean size, stage by stage: ${sizes.join(', ')}.`;
  }
  if (measure === 'read') {
    const spreads = (/** @type {'streamSpread' | 'readSpread'} */ key) =>
      measured.sublayers.map((sublayer) => percent(sublayer[key])).join(', ');
    return (
      `${on}, the words of a sentence differ in size (standard deviation over mean) by ` +
      `${spreads('streamSpread')} entering the ${names.length} sublayers, and by ` +
      `${spreads('readSpread')} in what they read.`
    );
  }
  if (measure === 'write') {
    const each = measured.sublayers.map((sublayer, k) => `${names[k]} ${two(sublayer.writeRms)}`);
    return `${on}, the mean size of what each sublayer adds: ${each.join(', ')}.`;
  }
  const cosines = measured.stages.slice(1).map((stage) => two(stage.inputCosine));
  return (
    `${on}, the stream\u2019s mean cosine with the word\u2019s input after each sublayer: ` +
    `${cosines.join(', ')}.`
  );
}
