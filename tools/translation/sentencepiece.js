// The German side in subword pieces, by SentencePiece (Kudo and Richardson 2018), the field's
// standard tokenizer, as Debian ships it (packages sentencepiece and libsentencepiece0, unpacked
// beside the corpus's other packages, never installed): spm_train learns the pieces from the
// train split's German, spm_encode writes every split's German as piece ids. A piece that begins
// a word starts with "▁" (U+2581); the page joins pieces back into words by it. Options that keep
// the output the same bytes on every run: one thread, no sampling or shuffling of the input, a
// fixed model name in a folder of its own. docs/translation-corpus.md, "German pieces".
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

import { GERMAN_SPECIALS } from './pairs-format.js';
import { GERMAN_SPECIAL_TOKENS } from './pairs.js';

/** The mark SentencePiece puts at the start of a piece that begins a word. */
export const WORD_START = '\u2581';

/**
 * The programs of the unpacked packages, and the environment they run in.
 * @param {string} root the folder the packages are unpacked into (it holds usr/bin/spm_train)
 */
function tools(root) {
  return {
    train: join(root, 'usr/bin/spm_train'),
    encode: join(root, 'usr/bin/spm_encode'),
    env: { ...process.env, LD_LIBRARY_PATH: join(root, 'usr/lib/x86_64-linux-gnu') },
  };
}

/**
 * Learns `size` pieces (the four special ids included) from German lines, with the unigram
 * model, and returns them in id order: `<pad>`, `<s>`, `</s>`, `<unk>`, then the pieces.
 * @param {string} root the unpacked packages
 * @param {string} folder an empty folder to work in
 * @param {string[]} lines German, tokens joined by single spaces
 * @param {number} size
 * @returns {string[]}
 */
export function trainGermanPieces(root, folder, lines, size) {
  const { train, env } = tools(root);
  writeFileSync(join(folder, 'german.txt'), lines.map((line) => `${line}\n`).join(''));
  execFileSync(
    train,
    [
      '--input=german.txt',
      '--model_prefix=german',
      `--vocab_size=${size}`,
      '--model_type=unigram',
      '--character_coverage=1.0',
      '--pad_id=0',
      '--bos_id=1',
      '--eos_id=2',
      '--unk_id=3',
      `--pad_piece=${GERMAN_SPECIAL_TOKENS[0]}`,
      `--bos_piece=${GERMAN_SPECIAL_TOKENS[1]}`,
      `--eos_piece=${GERMAN_SPECIAL_TOKENS[2]}`,
      `--unk_piece=${GERMAN_SPECIAL_TOKENS[3]}`,
      '--num_threads=1',
      '--shuffle_input_sentence=false',
      '--input_sentence_size=0',
      '--minloglevel=2',
    ],
    { cwd: folder, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const pieces = readFileSync(join(folder, 'german.vocab'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t')[0]);
  if (pieces.length !== size || GERMAN_SPECIAL_TOKENS.some((t, i) => pieces[i] !== t)) {
    throw new Error(
      `spm_train wrote ${pieces.length} pieces, not ${size} with the special ids first`,
    );
  }
  return pieces;
}

/**
 * Every line as piece ids, by the model trainGermanPieces left in `folder`.
 * @param {string} root
 * @param {string} folder
 * @param {string[]} lines German, tokens joined by single spaces
 * @returns {number[][]}
 */
export function encodeGermanPieces(root, folder, lines) {
  const { encode, env } = tools(root);
  const out = execFileSync(encode, ['--model=german.model', '--output_format=id'], {
    cwd: folder,
    env,
    input: lines.map((line) => `${line}\n`).join(''),
    maxBuffer: 1 << 30,
  }).toString('utf8');
  const encoded = out.split('\n').slice(0, lines.length);
  if (encoded.length !== lines.length) throw new Error('spm_encode wrote fewer lines than it read');
  return encoded.map((line) => (line === '' ? [] : line.split(' ').map(Number)));
}

/**
 * The pieces of each word: ids grouped at every piece that begins a word, and at the unknown id,
 * which stands for a whole word (the core's GermanVocabulary::begins_word).
 * @param {number[]} ids
 * @param {string[]} pieces the vocabulary, by id
 * @returns {number[][]}
 */
export function groupByWord(ids, pieces) {
  /** @type {number[][]} */
  const words = [];
  for (const id of ids) {
    if (words.length === 0 || id === GERMAN_SPECIALS.unknown || pieces[id].startsWith(WORD_START)) {
      words.push([id]);
    } else words[words.length - 1].push(id);
  }
  return words;
}
