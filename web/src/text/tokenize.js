// Splits text into lower-case tokens: words (any script) and single punctuation marks or symbols.
// English contractions are split the way the word vectors hold them ("didn't" -> "did", "n't";
// "it's" -> "it", "'s"; docs/embeddings.md), and a hyphenated compound stays one token when the
// vocabulary holds it ("well-known"). Emoji stay whole (one token per user-visible character,
// skin tones and joiners included). It accepts any string, including broken Unicode, and never
// throws.

// Made the first time text needs them: creating the word segmenter takes longer than tokenizing
// a page of text, and text in plain ASCII does without it (ASCII_WORD).
/** @type {{ word: Intl.Segmenter, grapheme: Intl.Segmenter } | null | undefined} */
let segmenters;

// Text of printable ASCII and ASCII white space only: most of what is typed in English.
const ASCII_TEXT = /^[\t\n\v\f\r\x20-\x7e]*$/;
// In such text, what the word segmenter (Unicode's word boundaries) makes of it: runs of letters,
// digits and underscores, joined across one ':', '.' or "'" between two letters, or one '.', ',',
// ';' or "'" between two digits; and any other character that is not a space, alone. A test holds
// the two equal on many random strings.
const ASCII_WORD =
  /[a-z0-9_]+(?:(?:(?<=[a-z])[:.'](?=[a-z])|(?<=[0-9])[.,;'](?=[0-9]))[a-z0-9_]+)*|[^\sa-z0-9_]/gi;

// Used only where Intl.Segmenter is missing: runs of letters, marks and digits (with inner
// apostrophes), or any other single non-space character.
const FALLBACK_TOKEN = /[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;

// Pieces that carry nothing to show: spaces, control and invisible formatting characters, and
// broken halves of surrogate pairs.
const INVISIBLE = /^[\s\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]*$/u;

// A right single quotation mark or modifier-letter apostrophe between letters is an apostrophe.
const CURLY_APOSTROPHE = /(?<=\p{L})[\u2019\u02bc](?=\p{L})/gu;

// Letters joined by single hyphens, standing alone (not part of a longer word).
const COMPOUND = /(?<![\p{L}\p{M}\p{N}_'-])\p{L}+(?:-\p{L}+)+(?![\p{L}\p{M}\p{N}_'-])/gu;

// The contraction pieces the vocabulary holds, and the word before "n't" where it is not simply
// the rest of the word ("can't" -> "can", "n't" rather than "ca", "n't").
const CONTRACTION = /^(.+?)(n't|'s|'re|'ve|'m|'ll|'d)$/u;
const IRREGULAR_NOT = new Map([
  ["can't", 'can'],
  ["won't", 'will'],
  ["shan't", 'shall'],
]);

/** @returns {{ word: Intl.Segmenter, grapheme: Intl.Segmenter } | null} null where missing */
function makeSegmenters() {
  try {
    return typeof Intl === 'object' && typeof Intl.Segmenter === 'function'
      ? {
          word: new Intl.Segmenter(undefined, { granularity: 'word' }),
          grapheme: new Intl.Segmenter(undefined, { granularity: 'grapheme' }),
        }
      : null;
  } catch {
    return null;
  }
}

/**
 * Cleans the text: Unicode NFC form, lower case, straight apostrophes inside words.
 * @param {string} text
 * @returns {string}
 */
function normalize(text) {
  const s = String(text ?? '');
  let clean;
  try {
    clean = s.normalize('NFC').toLowerCase();
  } catch {
    clean = s.toLowerCase();
  }
  return clean.replace(CURLY_APOSTROPHE, "'");
}

/**
 * @param {string} text already normalized
 * @returns {string[]}
 */
function segmentTokens(text) {
  return ASCII_TEXT.test(text) ? asciiTokens(text) : segmentedTokens(text);
}

/**
 * Words and marks of text in ASCII alone, as segmentedTokens gives them.
 * @param {string} text
 * @returns {string[]}
 */
export function asciiTokens(text) {
  return text.match(ASCII_WORD) ?? [];
}

/**
 * Words and marks by the browser's word and grapheme segmenters (exported for the test that holds
 * asciiTokens to them); where there are none, by FALLBACK_TOKEN.
 * @param {string} text
 * @returns {string[]}
 */
export function segmentedTokens(text) {
  if (segmenters === undefined) segmenters = makeSegmenters();
  if (!segmenters) return text.match(FALLBACK_TOKEN) ?? [];
  const tokens = [];
  for (const { segment, isWordLike } of segmenters.word.segment(text)) {
    if (isWordLike) {
      tokens.push(segment);
      continue;
    }
    // Invisible pieces (spaces, above all) are dropped below anyway, and a single code unit is a
    // single grapheme: neither needs the grapheme segmenter, which is most of the time tokenizing
    // takes when run on every gap.
    if (INVISIBLE.test(segment)) continue;
    if (segment.length === 1) {
      tokens.push(segment);
      continue;
    }
    // Other punctuation, symbols and emoji: one token per grapheme.
    for (const { segment: piece } of segmenters.grapheme.segment(segment)) tokens.push(piece);
  }
  return tokens;
}

/**
 * Splits a contraction into its word and the piece the vocabulary holds.
 * @param {string} token
 * @returns {string[]}
 */
function splitContraction(token) {
  const irregular = IRREGULAR_NOT.get(token);
  if (irregular) return [irregular, "n't"];
  const match = CONTRACTION.exec(token);
  return match ? [match[1], match[2]] : [token];
}

/**
 * Asks the vocabulary about a word; a vocabulary that throws knows nothing.
 * @param {((word: string) => boolean) | undefined} known
 * @param {string} word
 */
function knows(known, word) {
  try {
    return Boolean(known?.(word));
  } catch {
    return false;
  }
}

/**
 * Splits a sentence into lower-case word and punctuation tokens.
 * @param {string} text any text typed by the learner
 * @param {{ known?: (word: string) => boolean }} [options] `known` says whether the vocabulary
 *   holds a word; without it, hyphenated compounds are split at their hyphens
 * @returns {string[]} the tokens, in order; empty for empty or whitespace-only text
 * @example tokenize("The cat didn't sit.") // ['the', 'cat', 'did', "n't", 'sit', '.']
 */
export function tokenize(text, { known } = {}) {
  const clean = normalize(text);
  const raw = [];
  let start = 0;
  if (known) {
    for (const match of clean.matchAll(COMPOUND)) {
      if (!knows(known, match[0])) continue;
      raw.push(...segmentTokens(clean.slice(start, match.index)), match[0]);
      start = match.index + match[0].length;
    }
  }
  raw.push(...segmentTokens(clean.slice(start)));
  return raw.filter((token) => !INVISIBLE.test(token)).flatMap(splitContraction);
}
