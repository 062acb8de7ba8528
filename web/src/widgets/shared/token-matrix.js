// Text -> tokens -> X for the multi-head and position widgets: the one place they split text and
// turn tokens into vectors, so a change of tokenizer or word vectors (web/src/text/) is made here.
import { EMBED_DIM, embedTokens, vocabularyOf } from '../../text/embed.js';
import { tokenize } from '../../text/tokenize.js';

/** @returns {number} d_model, the width of one token's vector */
export function embeddingWidth() {
  return EMBED_DIM;
}

/**
 * @param {{ embed: Function }} engine the facade, with the word vectors loaded
 * @param {string} text what the learner typed
 * @returns {string[]} its tokens
 */
export function sentenceTokens(engine, text) {
  return tokenize(text, { known: vocabularyOf(engine) });
}

/**
 * @param {{ embed: Function }} engine the facade, with the word vectors loaded
 * @param {string[]} tokens
 * @returns {{ x: Float32Array, n: number, d: number }} X (n x d, row-major), row i for tokens[i]
 */
export function tokenMatrix(engine, tokens) {
  const { x, d } = embedTokens(engine, tokens);
  return { x, n: tokens.length, d };
}
