// What the live questions on the trained language model share: the model (loaded into the
// engine by the page before these questions are drawn), the names of heads and their kinds.
import { headName as shortName } from '../../text/heads.js';

/**
 * The engine's language model; throws when none is loaded.
 * @param {{ languageModel?: import('../../engine/index.js').LanguageModel | null }} engine
 * @returns {import('../../engine/index.js').LanguageModel}
 */
export function modelOf(engine) {
  const model = engine.languageModel;
  if (!model) throw new Error('this question needs the trained language model, not yet loaded');
  return model;
}

/**
 * "head 2.3": layer and head counted from 1, as the page shows them.
 * @param {{ layer: number, head: number }} head
 * @returns {string}
 */
export function headName(head) {
  return `head ${shortName(head)}`;
}

/**
 * Row `i` of an (n, n) matrix of weights, as a plain array of its first i + 1 entries.
 * @param {Float32Array} weights
 * @param {number} n
 * @param {number} i
 * @returns {number[]}
 */
export function causalRow(weights, n, i) {
  return Array.from(weights.subarray(i * n, i * n + i + 1));
}
