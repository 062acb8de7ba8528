// Live question: for random q and k of width d_k, about how large is the variance of the unscaled
// score q·k? The answer is the option nearest (on a log scale) to the variance the engine measures
// in its scaling experiment, and the explanation shows what it measured.
import { drawSeed, formatNumber, pick } from './shared.js';

const DIMS = [16, 64, 256, 512];
const SAMPLES = 2000;
const KEYS = 16;
const TRIALS = 100;

const DK = '<var>d<sub>k</sub></var>';

/**
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }}
 */
export function generate(engine, random) {
  const dk = pick(random, DIMS);
  const seed = drawSeed(random);
  const result = engine.scalingExperiment({
    dk,
    samples: SAMPLES,
    keys: KEYS,
    trials: TRIALS,
    seed,
  });
  const root = Math.sqrt(dk);
  const rootText = formatNumber(root, Number.isInteger(root) ? 0 : 1);
  const options = [
    { value: 1, html: 'About 1' },
    { value: root, html: `About \u221a${DK} = ${rootText}` },
    { value: dk, html: `About ${DK} = ${formatNumber(dk)}` },
    { value: dk * dk, html: `About ${DK}<sup>2</sup> = ${formatNumber(dk * dk)}` },
  ];
  const measured = result.unscaled.variance;
  const distance = (value) => Math.abs(Math.log(value) - Math.log(measured));
  const answer = options.reduce(
    (best, option, i) => (distance(option.value) < distance(options[best].value) ? i : best),
    0,
  );
  return {
    promptHtml:
      `<p>A query <var>q</var> and a key <var>k</var> each have ${DK} = ${formatNumber(dk)} ` +
      'entries, every entry drawn independently from a standard normal distribution (mean 0, ' +
      'variance 1).</p><p>About how large is the variance of the unscaled score ' +
      '<var>q</var>\u00b7<var>k</var>?</p>',
    choicesHtml: options.map((option) => option.html),
    answer,
    explanationHtml: explain(result, seed),
  };
}

/**
 * What the engine measured, unscaled and scaled.
 * @param {import('../../engine/index.js').ScalingResult} result
 * @param {number} seed
 * @returns {string}
 */
function explain({ dk, unscaled, scaled }, seed) {
  const root = Math.sqrt(dk);
  const rootText = formatNumber(root, Number.isInteger(root) ? 0 : 1);
  return (
    `<p>The engine drew ${formatNumber(SAMPLES)} such pairs (seed ${seed}). The unscaled ` +
    `scores <var>q</var>\u00b7<var>k</var> had mean ${formatNumber(unscaled.mean, 2)} and ` +
    `variance <strong>${formatNumber(unscaled.variance, 1)}</strong>, close to ${DK} = ` +
    `${formatNumber(dk)}: the score is a sum of ${formatNumber(dk)} products ` +
    '<var>q<sub>i</sub></var><var>k<sub>i</sub></var>, each with variance 1, and the variances ' +
    'of independent terms add up.</p>' +
    `<p>Divided by \u221a${DK} = ${rootText}, the same scores had variance ` +
    `${formatNumber(scaled.variance, 2)}. That is why attention scales: over ${KEYS} keys, the ` +
    `largest softmax weight averaged ${formatNumber(unscaled.maxWeight, 2)} unscaled against ` +
    `${formatNumber(scaled.maxWeight, 2)} scaled, and the norm of the softmax gradient ` +
    `${formatNumber(unscaled.gradientNorm, 3)} against ${formatNumber(scaled.gradientNorm, 3)}. ` +
    'Unscaled scores push the softmax towards one-hot, where its gradients shrink.</p>'
  );
}
