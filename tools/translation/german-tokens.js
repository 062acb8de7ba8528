// Splits German text into the tokens the translation models predict and BLEU compares: Unicode NFC
// form, lower case, words by the German word segmenter (Unicode's word boundaries), a word joined
// across a single hyphen to the word right after it ("e-mail", "60er-jahren", "html-seiten"), and
// every other character that is not white space a token of its own (one per grapheme: ",", "„",
// "…"). docs/translation-corpus.md gives the reasons.

// A hyphen-minus or a Unicode hyphen (U+2010), when it stands between two words with no space.
const HYPHENS = new Set(['-', '\u2010']);
// A right single quotation mark or modifier-letter apostrophe between letters is an apostrophe.
const CURLY_APOSTROPHE = /(?<=\p{L})[\u2019\u02bc](?=\p{L})/gu;
// Pieces that carry nothing to show: spaces, control and invisible formatting characters.
const INVISIBLE = /^[\s\p{Cc}\p{Cf}]*$/u;

/** @type {{ word: Intl.Segmenter, grapheme: Intl.Segmenter } | undefined} */
let segmenters;

/**
 * Lower-case word and punctuation tokens of German text.
 * @param {string} text
 * @returns {string[]}
 * @example germanTokens('Öffnen Sie die E-Mail-Adresse „Info“.')
 *   // ['öffnen', 'sie', 'die', 'e-mail-adresse', '„', 'info', '“', '.']
 */
export function germanTokens(text) {
  segmenters ??= {
    word: new Intl.Segmenter('de', { granularity: 'word' }),
    grapheme: new Intl.Segmenter('de', { granularity: 'grapheme' }),
  };
  const clean = text.normalize('NFC').toLowerCase().replace(CURLY_APOSTROPHE, "'");
  /** @type {Array<{ text: string, word: boolean, end: number }>} */
  const pieces = [];
  for (const { segment, index, isWordLike } of segmenters.word.segment(clean)) {
    if (isWordLike) {
      pieces.push({ text: segment, word: true, end: index + segment.length });
    } else if (!INVISIBLE.test(segment)) {
      let at = index;
      for (const { segment: mark } of segmenters.grapheme.segment(segment)) {
        at += mark.length;
        if (!INVISIBLE.test(mark)) pieces.push({ text: mark, word: false, end: at });
      }
    }
  }
  return joinHyphenated(pieces);
}

/**
 * Joins word, hyphen, word (each right after the one before) into one word, as often as it repeats.
 * @param {Array<{ text: string, word: boolean, end: number }>} pieces in text order
 * @returns {string[]}
 */
function joinHyphenated(pieces) {
  /** @type {Array<{ text: string, word: boolean, end: number }>} */
  const joined = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    const before = joined[joined.length - 1];
    const after = pieces[i + 1];
    if (
      HYPHENS.has(piece.text) &&
      before?.word &&
      before.end === piece.end - piece.text.length &&
      after?.word &&
      after.end - after.text.length === piece.end
    ) {
      before.text += piece.text + after.text;
      before.end = after.end;
      i++;
    } else {
      joined.push({ ...piece });
    }
  }
  return joined.map((piece) => piece.text);
}
