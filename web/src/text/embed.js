// Token -> vector: pre-trained English word vectors (100-d GloVe, the 20,000 most frequent
// lower-case words; docs/embeddings.md), looked up by the engine once web/src/text/vectors.js has
// loaded them. A token the vocabulary does not hold gets a stand-in vector of its own (the same
// for the same token, of a typical length, unrelated to any word) and is flagged unknown.

/** Length of each word vector: the asset's dimension. */
export const EMBED_DIM = 100;

/**
 * Builds the embedding matrix X (n x d, row-major) for a list of tokens.
 * @param {{ embed: (tokens: string[]) => { vectors: Float32Array, known: Uint8Array, d: number } }} engine
 *   the facade, with the word vectors loaded
 * @param {string[]} tokens the tokens, one row each
 * @returns {{ x: Float32Array, unknown: boolean[], d: number }} X, with row i the vector of
 *   tokens[i], and whether each token was missing from the vocabulary
 */
export function embedTokens(engine, tokens) {
  const { vectors, known, d } = engine.embed(tokens);
  return { x: vectors, unknown: Array.from(known, (flag) => flag === 0), d };
}

/**
 * A `known` test for the tokenizer: whether the loaded vocabulary holds `word`.
 * @param {{ embed: (tokens: string[]) => { known: Uint8Array } }} engine
 * @returns {(word: string) => boolean}
 */
export function vocabularyOf(engine) {
  return (word) => engine.embed([word]).known[0] === 1;
}
