// A translation figure as the attention translator draws it, kept as plain data: the title slide
// draws its sentence from such a recording (recorded.json) the moment the page has loaded, and
// the live models, about 4.5 MB with the word vectors, load after it. `npm run
// record:translation` writes the recordings from the committed models with this module, and a
// test recomputes them, so a recording is what the model computes, bit for bit.
import { alignmentFactsText, modelFactsText } from './text.js';

/**
 * @typedef {object} AlignmentRecording one sentence's alignment view, as JSON can hold it
 * @property {string} sentence the English as typed
 * @property {string[]} source the English tokens (n)
 * @property {boolean[]} known whether each has a word vector (n)
 * @property {number} dropped tokens cut past the models' limit
 * @property {string[]} target the German words as written, <unk> for an unknown one (w)
 * @property {string[]} output the German words as shown (w)
 * @property {number[]} copied per word, the English token copied in, or -1 (w)
 * @property {number[]} weights (w, n) row-major: each German word's weights over the English
 * @property {{ alignment: string, short: string, more: string }} facts the lines under the figure
 */

/**
 * Records the attention model's alignment view of one sentence.
 * @param {import('../../text/translation.js').Translators} models
 * @param {string} sentence
 * @returns {AlignmentRecording}
 */
export function recordAlignment(models, sentence) {
  const t = models.attention.translate(sentence, { beam: models.attention.info.measuredBeam });
  const facts = modelFactsText(models.attention.info, models.fixedVector.info);
  return {
    sentence,
    source: [...t.source],
    known: [...t.known],
    dropped: t.dropped,
    target: [...t.target],
    output: [...t.output],
    copied: [...t.copied],
    // Float32 values are doubles exactly, so JSON keeps every bit.
    weights: Array.from(t.weights),
    facts: { alignment: alignmentFactsText(models.attention.info), ...facts },
  };
}

/**
 * The recording of `sentence` among `recordings`, as a translation the figures draw, or
 * undefined when it was not recorded.
 * @param {AlignmentRecording[]} recordings
 * @param {string} sentence
 */
export function recordedAlignment(recordings, sentence) {
  const found = recordings.find((r) => r.sentence === sentence);
  if (!found) return undefined;
  const { facts, weights, ...rest } = found;
  return { facts, translation: { ...rest, weights: Float32Array.from(weights) } };
}
