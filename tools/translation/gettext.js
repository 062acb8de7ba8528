// Sentence pairs from gettext catalogues: the compiled `.mo` files in which programs, here games,
// carry the German translations of their English messages. readCatalogue reads one file;
// cataloguePairs keeps the messages that read as sentences in both languages. The rules and why:
// docs/translation-corpus.md, "The games' catalogues".

const MAGIC = 0x950412de;
// Characters that mark a message as a template or markup rather than text a person reads:
// printf and brace placeholders, tags, variables, accelerator marks, escapes.
const NOT_PROSE = /[%{}<>$[\]\\@|_&#*=~^`]/;
const SENTENCE_START = /^[\p{Lu}\p{Nd}"'„“‚‘«»]/u;
// A sentence ends with . ? or ! and, after it, closing quotes or brackets.
const SENTENCE_END = /[.?!]["'“”‘’«»)]*$/u;
// Where a message breaks into sentences: after an end mark (and closing quotes), before a
// capital, a digit or an opening quote.
const SENTENCE_BREAK = /(?<=[.?!]["'“”‘’«»)]*)\s+(?=[\p{Lu}\p{Nd}"'„“‚‘«»])/u;
const MIN_WORDS = 3;

/**
 * The translated messages of one compiled catalogue, in the file's order: the English message
 * (`id`, its context dropped) and the German (`text`). Skipped: the header (an empty id), plural
 * messages (whose id holds a second form after a NUL) and untranslated ones.
 * @param {Uint8Array} bytes a `.mo` file
 * @returns {Array<{ id: string, text: string }>}
 */
export function readCatalogue(bytes) {
  if (bytes.length < 20) throw new Error('not a gettext catalogue: shorter than its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let little = true;
  if (view.getUint32(0, true) !== MAGIC) {
    if (view.getUint32(0, false) !== MAGIC) throw new Error('not a gettext catalogue: bad magic');
    little = false;
  }
  const count = view.getUint32(8, little);
  const originals = view.getUint32(12, little);
  const translations = view.getUint32(16, little);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  /** @param {number} table @param {number} i */
  const stringAt = (table, i) => {
    const at = table + 8 * i;
    if (at + 8 > bytes.length) throw new Error('not a gettext catalogue: table past its end');
    const length = view.getUint32(at, little);
    const offset = view.getUint32(at + 4, little);
    if (offset + length > bytes.length) throw new Error('not a gettext catalogue: string past end');
    return decoder.decode(bytes.subarray(offset, offset + length));
  };
  const messages = [];
  for (let i = 0; i < count; i++) {
    const original = stringAt(originals, i);
    if (original === '' || original.includes('\0')) continue;
    const text = stringAt(translations, i);
    if (text === '' || text.includes('\0')) continue;
    const context = original.indexOf('\u0004');
    messages.push({ id: context < 0 ? original : original.slice(context + 1), text });
  }
  return messages;
}

/** What happened to a catalogue's messages, for the corpus script's report. */
export function emptyCatalogueCounts() {
  return { messages: 0, notProse: 0, pairs: 0, split: 0 };
}

/**
 * The sentence pairs of one message: its English and German with white space made single
 * spaces; a message that is several sentences on both sides, as many on each, gives one pair a
 * sentence; otherwise the whole message is one pair. A pair is kept when both sides read as
 * sentences (readsAsSentence) and neither holds a placeholder or markup (NOT_PROSE).
 * @param {{ id: string, text: string }} message
 * @param {ReturnType<typeof emptyCatalogueCounts>} [counts] tallied, when given
 * @returns {Array<{ english: string, german: string }>}
 */
export function cataloguePairs({ id, text }, counts = emptyCatalogueCounts()) {
  counts.messages++;
  const english = id.replace(/\s+/g, ' ').trim();
  const german = text.replace(/\s+/g, ' ').trim();
  if (NOT_PROSE.test(english) || NOT_PROSE.test(german)) {
    counts.notProse++;
    return [];
  }
  const englishSentences = english.split(SENTENCE_BREAK);
  const germanSentences = german.split(SENTENCE_BREAK);
  const pairs =
    englishSentences.length > 1 && englishSentences.length === germanSentences.length
      ? englishSentences.map((sentence, i) => ({ english: sentence, german: germanSentences[i] }))
      : [{ english, german }];
  if (pairs.length > 1) counts.split++;
  const kept = pairs.filter(
    (pair) => readsAsSentence(pair.english) && readsAsSentence(pair.german),
  );
  counts.pairs += kept.length;
  return kept;
}

/**
 * Whether a text reads as a sentence: it starts with a capital, a digit or a quote, ends with
 * . ? or ! (closing quotes allowed after it), and has at least MIN_WORDS words.
 * @param {string} text
 */
export function readsAsSentence(text) {
  return (
    SENTENCE_START.test(text) &&
    SENTENCE_END.test(text) &&
    text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word)).length >= MIN_WORDS
  );
}
