// Scores the page's translators on everyday English: the sentences of daily life in
// tools/translation/everyday/everyday-en-de.tsv (English, a tab, a German reference written for
// this set), translated by translate(text) exactly as the page runs it. Per model: corpus chrF of
// the translation as the page shows it (chrf.js), the share of the words written that are the
// unknown word <unk>, and the share of the references' content words the translations write
// (content-words.js). docs/translation-corpus.md describes the set.
//
// Usage: node tools/translation/everyday.js [--set FILE] [--beam N] [--sentences]
// Prints the scores as JSON (--beam: translate with beam search of that width, 1 = greedy; by
// default the beam the committed report names, the page's); --sentences adds every translation.

import { readFileSync } from 'node:fs';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import { TRANSLATOR_MODELS, GERMAN_UNKNOWN } from '../../web/src/engine/translator.js';
import { corpusChrf } from './chrf.js';
import { contentWordsFound } from './content-words.js';

export const EVERYDAY_SET = fileURLToPath(new URL('everyday/everyday-en-de.tsv', import.meta.url));

/**
 * The set's pairs: one per line, English and German separated by a tab.
 * @param {string} text
 * @returns {Array<{ english: string, german: string }>}
 */
export function readEverydaySet(text) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const fields = line.split('\t');
      if (fields.length !== 2 || !fields[0].trim() || !fields[1].trim()) {
        throw new RangeError(`everyday set, line ${i + 1}: expected English, a tab, German`);
      }
      return { english: fields[0].trim(), german: fields[1].trim() };
    });
}

/**
 * One model's scores on the pairs.
 * @param {import('../../web/src/engine/index.js').Translator} translator
 * @param {Array<{ english: string, german: string }>} pairs
 * @param {{ beam?: number }} [options] the beam translate() searches with (1: greedy)
 */
export function scoreEveryday(translator, pairs, { beam = 1 } = {}) {
  let written = 0;
  let unknown = 0;
  let found = 0;
  let total = 0;
  const sentences = pairs.map(({ english, german }) => {
    const result = translator.translate(english, { beam });
    written += result.target.length;
    unknown += result.target.filter((word) => word === GERMAN_UNKNOWN).length;
    const shown = result.output.join(' ');
    const content = contentWordsFound(shown, german);
    found += content.found;
    total += content.total;
    return { english, reference: german, translation: shown };
  });
  const chrf = corpusChrf(
    sentences.map((s) => ({ hypothesis: s.translation, reference: s.reference })),
  );
  return {
    sentences: pairs.length,
    chrf: round(chrf, 1),
    unknownShare: round(written > 0 ? unknown / written : 0, 4),
    contentWordRecall: round(total > 0 ? found / total : 0, 4),
    translations: sentences,
  };
}

/**
 * @param {number} x
 * @param {number} digits
 */
function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

async function main() {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', default: EVERYDAY_SET },
      beam: { type: 'string' },
      sentences: { type: 'boolean', default: false },
    },
  });
  const { loadTranslator } = await import('../../web/src/engine/node.js');
  const beam = Number(values.beam ?? (await loadTranslator()).info.measuredBeam);
  if (!Number.isInteger(beam) || beam < 1 || beam > 16) {
    throw new Error(`everyday: --beam takes a whole number from 1 to 16, got ${values.beam}`);
  }
  const pairs = readEverydaySet(readFileSync(values.set, 'utf8'));
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const model of TRANSLATOR_MODELS) {
    const { translations, ...scores } = scoreEveryday(await loadTranslator({ model }), pairs, {
      beam,
    });
    out[model] = values.sentences ? { ...scores, translations } : scores;
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
