// Word-to-word translations from the FreeDict English-German dictionary (Debian package
// dict-freedict-eng-deu: /usr/share/dictd/freedict-eng-deu.dict.dz, a dictzip file that plain gzip
// reads, and its .index). They are only for scoring the models' attention as word alignments,
// never for training: docs/translation-corpus.md, "FreeDict".
//
// An index line is `headword<TAB>offset<TAB>length`, the two numbers in dictd's base 64, giving
// the entry's bytes in the uncompressed file. An entry starts with the English headword and its
// pronunciation, `word /wɜːd/`, then a line of German translations separated by commas, each with
// grammar tags in angle brackets and usage notes in brackets (`Wort <neut> [ling.], Vokabel
// <fem>`); lines indented by more than one space (notes, examples, synonyms) and ` see:`
// references follow.

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
// A headword of the database's own (its name, licence text, ...), not of the dictionary.
const DATABASE_ENTRY = /^00-?database/;
// The pronunciation after the headword.
const PRONUNCIATION = / \/[^/]*\/$/;
// Tags and notes inside a translation line.
const NOTES = /<[^<>]*>|\[[^[\]]*\]|\([^()]*\)|\{[^{}]*\}/g;
// One word: letters, maybe joined by single hyphens ("e-mail"), at least two letters in all (a
// single letter is a letter's or a note's name, not a word).
const WORD = /^(?=.{2})\p{L}+(?:-\p{L}+)*$/u;

/**
 * A number in dictd's base 64 (most significant digit first).
 * @param {string} text
 * @returns {number}
 */
export function dictNumber(text) {
  let value = 0;
  for (const digit of text) {
    const at = DIGITS.indexOf(digit);
    if (at < 0) throw new Error(`"${text}" is not a dictd number`);
    value = value * 64 + at;
  }
  return value;
}

/**
 * The entries an index names, each once (an entry is listed under several headwords), in the
 * order of their offsets; the database's own entries are left out.
 * @param {string} index the whole .index file
 * @returns {Array<{ offset: number, length: number }>}
 */
export function indexEntries(index) {
  /** @type {Map<number, number>} */
  const entries = new Map();
  for (const line of index.split('\n')) {
    if (line === '') continue;
    const fields = line.split('\t');
    if (fields.length !== 3) throw new Error(`index line "${line}" does not have three fields`);
    if (DATABASE_ENTRY.test(fields[0])) continue;
    entries.set(dictNumber(fields[1]), dictNumber(fields[2]));
  }
  return [...entries].sort((a, b) => a[0] - b[0]).map(([offset, length]) => ({ offset, length }));
}

/**
 * The single-word translations of one entry: the headword and each German word of its translation
 * lines, both lower case, when the headword is a single word; otherwise none.
 * @param {string} entry an entry's text
 * @returns {Array<[english: string, german: string]>}
 */
export function entryTranslations(entry) {
  const lines = entry.normalize('NFC').split('\n');
  const headword = lines[0].replace(PRONUNCIATION, '').trim();
  if (!WORD.test(headword)) return [];
  const english = headword.toLowerCase();
  /** @type {Array<[string, string]>} */
  const pairs = [];
  for (const line of lines.slice(1)) {
    // A translation line starts at the margin, or after one space before a usage note.
    if (line === '' || /^ (?!\[)|^ {2}/.test(line)) continue;
    for (const piece of line.replace(NOTES, ' ').split(',')) {
      const german = piece.trim();
      if (WORD.test(german)) pairs.push([english, german.toLowerCase()]);
    }
  }
  return pairs;
}

/**
 * The dictionary file's lines: `english<TAB>german`, each pair once, sorted by code point.
 * @param {string} index the .index file
 * @param {Uint8Array} dict the uncompressed .dict file
 * @returns {string[]}
 */
export function dictionaryLines(index, dict) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines = new Set();
  for (const { offset, length } of indexEntries(index)) {
    if (offset + length > dict.length) throw new Error(`entry at ${offset} runs past the file`);
    const entry = decoder.decode(dict.subarray(offset, offset + length));
    for (const [english, german] of entryTranslations(entry)) lines.add(`${english}\t${german}`);
  }
  return [...lines].sort(compareCodePoints);
}

/**
 * Orders strings by their code points (as their UTF-8 bytes sort), not by UTF-16 code units: the
 * two differ only where a surrogate (an astral character's half, D800-DFFF) meets a code unit of
 * E000-FFFF, which UTF-16 order puts after it.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function compareCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** @param {number} unit a UTF-16 code unit */
function codePointRank(unit) {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}
