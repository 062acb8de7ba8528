// The Brown Corpus as the language model sees it: a sample's tagged words (`The/at jury/nn`) back
// into running text, tokenized by the page's own tokenizer, and the tokens turned into vocabulary
// ids from the word-vector asset (web/public/embeddings/en-20k-100d.bin). Used by
// tools/make-corpus.js; docs/corpus.md describes the choices.
import { fnv1a32 } from '../web/src/text/corpus.js';
import { tokenize } from '../web/src/text/tokenize.js';

// Brown's ASCII renderings of the typographic double quotes, `` (open) and '' (close).
const DOUBLE_QUOTES = /``|''/g;
// Tokens written without a space before them, and after which none is written.
const CLOSES = new Set(['.', ',', ';', ':', '?', '!', ')', ']', '"close']);
const OPENS = new Set(['(', '[', '"open']);

/**
 * The words of a Brown sample file, sentence by sentence, tags stripped. Each sentence is one
 * non-blank line of `word/tag` items; the tag follows the last slash (`1/2/cd` is the word `1/2`).
 * @param {string} text the whole file
 * @returns {string[][]} the sentences, each its words in order
 */
export function brownSentences(text) {
  const sentences = [];
  for (const line of text.split('\n')) {
    const items = line.split(/[ \t]+/).filter((item) => item.length > 0);
    if (items.length === 0) continue;
    sentences.push(
      items.map((item) => {
        const slash = item.lastIndexOf('/');
        if (slash <= 0 || slash === item.length - 1) {
          throw new Error(`"${item}" is not a word/tag pair`);
        }
        return item.slice(0, slash);
      }),
    );
  }
  return sentences;
}

/**
 * Rebuilds a sample's running text from its words, as it would be typed: Brown's `` and '' become
 * the double quote "; closing punctuation, a closing quote and a closing bracket follow the word
 * before them without a space, an opening quote or bracket leans on the word after it, and every
 * other word is separated by one space. Sentences are separated by a newline.
 * @param {string[][]} sentences from brownSentences
 * @returns {string}
 */
export function runningText(sentences) {
  return sentences.map(sentenceText).join('\n');
}

/** @param {string[]} words */
function sentenceText(words) {
  let text = '';
  let glue = true;
  for (const word of words) {
    const kind = word === '``' ? '"open' : word === "''" ? '"close' : word;
    const written = word.replace(DOUBLE_QUOTES, '"');
    if (!glue && !CLOSES.has(kind)) text += ' ';
    text += written;
    glue = OPENS.has(kind);
  }
  return text;
}

/**
 * The vocabulary of the word-vector asset (format in docs/embeddings.md), checked: magic,
 * version, a vocabulary of `count` distinct words, and the file's exact size.
 * @param {Uint8Array} bytes the whole asset
 * @returns {{ words: string[], hash: number }} the words in row order, and the FNV-1a hash of the
 *   vocabulary's bytes as stored (every word followed by a newline)
 */
export function readVocabulary(bytes) {
  if (bytes.length < 24) throw new Error('the word-vector file is truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== 'ATTNVECS') throw new Error('not a word-vector file: the magic is not ATTNVECS');
  const [version, count, dim, vocabularyBytes] = [8, 12, 16, 20].map((at) =>
    view.getUint32(at, true),
  );
  if (version !== 1) throw new Error(`word-vector file version ${version}, expected 1`);
  const padding = (4 - ((24 + vocabularyBytes) % 4)) % 4;
  const size = 24 + vocabularyBytes + padding + 4 * count + count * dim;
  if (bytes.length !== size) {
    throw new Error(`the word-vector file has ${bytes.length} bytes, its header says ${size}`);
  }
  const vocabulary = bytes.subarray(24, 24 + vocabularyBytes);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(vocabulary);
  if (!text.endsWith('\n')) throw new Error('the vocabulary does not end with a newline');
  const words = text.slice(0, -1).split('\n');
  if (words.length !== count || new Set(words).size !== count || words.includes('')) {
    throw new Error(`the vocabulary does not hold ${count} distinct non-empty words`);
  }
  return { words, hash: fnv1a32(vocabulary) };
}

/**
 * Maps text to ids the way the page sees it: tokenized by web/src/text/tokenize.js with the
 * vocabulary as its `known` test (so a hyphenated compound the vocabulary holds stays whole), a
 * token's id its row in the vocabulary, and every token the vocabulary lacks the unknown-word id,
 * which is the vocabulary's size (one past its last row).
 * @param {string[]} words the vocabulary, in row order
 */
export function makeEncoder(words) {
  /** @type {Map<string, number>} */
  const rows = new Map(words.map((word, i) => [word, i]));
  const unknownId = words.length;
  /** @param {string} word */
  const known = (word) => rows.has(word);
  return {
    unknownId,
    classes: words.length + 1,
    /**
     * @param {string} text
     * @returns {{ tokens: string[], ids: number[] }}
     */
    encode(text) {
      const tokens = tokenize(text, { known });
      return { tokens, ids: tokens.map((token) => rows.get(token) ?? unknownId) };
    },
  };
}

/**
 * The split of the sample at `index` in the corpus's order: every tenth sample (index % 10 = 9)
 * is held out for testing, another tenth (index % 10 = 4) for validation, the rest train.
 * @param {number} index
 * @returns {'train' | 'validation' | 'test'}
 */
export function splitOf(index) {
  const tenth = index % 10;
  return tenth === 9 ? 'test' : tenth === 4 ? 'validation' : 'train';
}
