// Splits text into lower-case tokens: words (any script) and single punctuation marks or symbols.
// Emoji stay whole (one token per user-visible character, skin tones and joiners included).
// It accepts any string, including broken Unicode, and never throws.

const WORD_SEGMENTER = makeSegmenter('word');
const GRAPHEME_SEGMENTER = makeSegmenter('grapheme');

// Used only where Intl.Segmenter is missing: runs of letters, marks and digits (with inner
// apostrophes), or any other single non-space character.
const FALLBACK_TOKEN = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;

// Pieces that carry nothing to show: spaces, control and invisible formatting characters, and
// broken halves of surrogate pairs.
const INVISIBLE = /^[\s\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]*$/u;

/**
 * @param {'word' | 'grapheme'} granularity
 * @returns {Intl.Segmenter | null}
 */
function makeSegmenter(granularity) {
  try {
    return typeof Intl === 'object' && typeof Intl.Segmenter === 'function'
      ? new Intl.Segmenter(undefined, { granularity })
      : null;
  } catch {
    return null;
  }
}

/**
 * Cleans the text: Unicode NFC form and lower case.
 * @param {string} text
 * @returns {string}
 */
function normalize(text) {
  const s = String(text ?? '');
  try {
    return s.normalize('NFC').toLowerCase();
  } catch {
    return s.toLowerCase();
  }
}

/**
 * @param {string} text already normalized
 * @returns {string[]}
 */
function segmentTokens(text) {
  const tokens = [];
  for (const { segment, isWordLike } of WORD_SEGMENTER.segment(text)) {
    if (isWordLike) {
      tokens.push(segment);
      continue;
    }
    // Punctuation, symbols and emoji: one token per grapheme.
    for (const { segment: piece } of GRAPHEME_SEGMENTER.segment(segment)) tokens.push(piece);
  }
  return tokens;
}

/**
 * Splits a sentence into lower-case word and punctuation tokens.
 * @param {string} text any text typed by the learner
 * @returns {string[]} the tokens, in order; empty for empty or whitespace-only text
 * @example tokenize('The cat sat.') // ['the', 'cat', 'sat', '.']
 */
export function tokenize(text) {
  const clean = normalize(text);
  const raw =
    WORD_SEGMENTER && GRAPHEME_SEGMENTER
      ? segmentTokens(clean)
      : (clean.match(FALLBACK_TOKEN) ?? []);
  return raw.filter((token) => !INVISIBLE.test(token));
}
