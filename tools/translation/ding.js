// Sentence pairs, and word and phrase entries, from the Ding German-English dictionary (Debian
// package trans-de-en, the file /usr/share/trans/de-en). A line is `German | German ... ::
// English | English ...`: the i-th German alternative translates the i-th English one; many
// alternatives are whole example sentences ("Er hat Besuch. :: He has visitors."), most are words
// and phrases ("Garten :: garden"). Both are cleaned by the same rules (dingClean). The rules that
// keep a pair and why: docs/translation-corpus.md, "Ding".

// Notes that are not part of the sentence: {m} {pl} {vt} (grammar), [ugs.] [Br.] (usage),
// <Aalmolch> (other spellings).
const BRACED = /\{[^{}]*\}|\[[^[\]]*\]|<[^<>]*>/g;
// Parentheses, innermost first: optional words and glosses ("eine (tragende) Säule").
const PARENTHESIZED = /\([^()]*\)/g;
// An abbreviation note written between slashes after the words it shortens: "/WTHDTM/".
const ABBREVIATION = /(?<=\s|^)\/[^/\s]+\/(?=\s|$)/g;
// The dictionary's placeholders for "something", "somebody" and their cases, in either language.
const PLACEHOLDER = /(?<![\p{L}\p{N}])(?:etw|jd|jdm|jdn|jds|sth|sb)\./u;
// "so." stands for "someone" in a few entries, but it also ends ordinary sentences ("I think so."):
// it is a placeholder only when words follow it.
const SO_PLACEHOLDER = /(?<![\p{L}\p{N}])so\.\s+\S/u;
// The first character of a sentence: an upper-case letter or a digit ("3 Tage später ...").
const SENTENCE_START = /^[\p{Lu}\p{Nd}]/u;
const SENTENCE_END = /[.?!]$/;
const MIN_WORDS = 3;
// The most words a side of a word or phrase entry has.
export const ENTRY_MAX_WORDS = 4;

/** What happened to the lines and alternatives of the file, for the script's report. */
export function emptyDingCounts() {
  return { lines: 0, malformed: 0, unaligned: 0, alternatives: 0, pairs: 0, entries: 0 };
}

/**
 * The pairs of one line of the dictionary, in the line's order: its full sentences on both sides
 * (dingSentence), and when `entries` is set also its word and phrase entries (dingEntry), each
 * marked with which it is.
 * @param {string} line one line of the file, without its newline
 * @param {ReturnType<typeof emptyDingCounts>} [counts] tallied, when given
 * @param {{ entries?: boolean }} [options]
 * @returns {Array<{ german: string, english: string, entry: boolean }>}
 */
export function dingPairs(line, counts = emptyDingCounts(), { entries = false } = {}) {
  if (line.startsWith('#') || line.trim() === '') return [];
  counts.lines++;
  const sides = line.split(' :: ');
  if (sides.length !== 2) {
    counts.malformed++;
    return [];
  }
  const german = sides[0].split(' | ');
  const english = sides[1].split(' | ');
  if (german.length !== english.length) {
    counts.unaligned++;
    return [];
  }
  const pairs = [];
  for (let i = 0; i < german.length; i++) {
    counts.alternatives++;
    const de = dingSentence(german[i]);
    const en = de === null ? null : dingSentence(english[i]);
    if (de !== null && en !== null) {
      pairs.push({ german: de, english: en, entry: false });
      counts.pairs++;
    } else if (entries) {
      const deEntry = dingEntry(german[i]);
      const enEntry = deEntry === null ? null : dingEntry(english[i]);
      if (deEntry !== null && enEntry !== null) {
        pairs.push({ german: deEntry, english: enEntry, entry: true });
        counts.entries++;
      }
    }
  }
  return pairs;
}

/**
 * One alternative with the dictionary's notes taken off: the notes in braces, brackets and angle
 * brackets, parentheses (innermost first) and slash abbreviations are removed, of synonyms
 * separated by `;` the first is kept, and white space collapses, with no space left before a
 * punctuation mark. Rules 1-4 of docs/translation-corpus.md, "Ding": sentences and entries alike.
 * @param {string} alternative
 * @returns {string}
 */
export function dingClean(alternative) {
  let text = alternative.replace(BRACED, ' ');
  for (let before = ''; before !== text;) {
    before = text;
    text = text.replace(PARENTHESIZED, ' ');
  }
  text = text.replace(ABBREVIATION, ' ');
  text = (text.split(';')[0] ?? '').replace(/\s+/g, ' ').trim();
  // Removing a note can leave a space before the punctuation that followed it.
  return text.replace(/ (?=[.,;:?!])/g, '');
}

/**
 * Whether cleaned text still holds a choice the dictionary leaves open (a `/` between
 * alternatives, a bracket of a note it could not take off) or a placeholder (`etw.`, `sb.`, ...).
 * @param {string} text
 */
function holdsChoiceOrPlaceholder(text) {
  return /[/()[\]{}<>]/.test(text) || PLACEHOLDER.test(text) || SO_PLACEHOLDER.test(text);
}

/**
 * One alternative as a plain sentence, or null when it is not a full sentence without
 * placeholders: cleaned (dingClean), it must start with an upper-case letter or a digit, end with
 * `.`, `?` or `!`, have at least 3 words, and hold no `/` (alternatives written "aus/auf") and no
 * placeholder (`etw.`, `sb.`, ...).
 * @param {string} alternative
 * @returns {string | null}
 */
export function dingSentence(alternative) {
  const text = dingClean(alternative);
  if (!SENTENCE_START.test(text) || !SENTENCE_END.test(text)) return null;
  if (text.split(' ').length < MIN_WORDS) return null;
  if (holdsChoiceOrPlaceholder(text)) return null;
  return text;
}

/**
 * One alternative as a word or phrase entry ("Garten" for "garden", "den Garten pflegen" for "to
 * take care of the garden"), or null: cleaned (dingClean), it must have 1 to ENTRY_MAX_WORDS
 * words, not end like a sentence (those are dingSentence's), and hold no choice or placeholder.
 * @param {string} alternative
 * @returns {string | null}
 */
export function dingEntry(alternative) {
  const text = dingClean(alternative);
  if (text === '' || /[.?!…]$/.test(text)) return null;
  if (text.split(' ').length > ENTRY_MAX_WORDS) return null;
  if (holdsChoiceOrPlaceholder(text)) return null;
  return text;
}
