// The transformer widget's words and numbers (web/src/widgets/transformer/text.js) on the real
// Transformer and its report, worked out again here from the report's JSON: the heads offered
// and their scores, the rows of the head drawn, the facts under it, which heads align, the search,
// and the three translators' BLEU by English length; inside the encoder (encoder-text.js), its
// heads and their shares, each measure's matrix and its words, from a real translation's trace and
// the report; which models each view declares; and the Transformer's page loader
// (web/src/text/transformer.js), from the site's own files.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { loadEngine, loadTranslator } from 'attention-lab';
import { ROOT, rowSums } from './helpers.js';

register('./page-modules.js', import.meta.url);
const text = await import('../../web/src/widgets/transformer/text.js');
const encoderText = await import('../../web/src/widgets/transformer/encoder-text.js');
const { modelsOf, viewOf } = await import('../../web/src/widgets/transformer/index.js');
const { SETTINGS } = await import('../../web/src/widgets/transformer/link-settings.js');
const { acceptSettings } = await import('../../web/src/widgets/shared/link-settings.js');
const { needsOf } = await import('../../web/src/widgets/shared/registry.js');
const { TRAINED_MODELS } = await import('../../web/src/text/trained-models.js');
const loader = await import('../../web/src/text/transformer.js');

const read = (path) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const REPORT = read('web/public/models/transformer.json');
const LESSON_1 = read('web/public/models/translation.json');
const MEASURED = REPORT.models.transformer;
/** @param {{ aligned: number, checkable: number }} h @returns {number} its share, from its counts */
const share = (h) => h.aligned / h.checkable;

const transformer = await loadTranslator({ model: 'transformer' });
const attention = await loadTranslator();
const fixedVector = await loadTranslator({ model: 'fixed-vector' });
const { info } = transformer;
/** An engine of its own for the page loader, which puts the word vectors and the model in it. */
const pageEngine = /** @type {any} */ (await loadEngine());

describe('the heads offered', () => {
  const choices = text.headChoices(info);

  test('every decoder head, layer-major and counted from 1, then the last layer’s mean', () => {
    const { decoderLayers, heads } = REPORT.sizes;
    assert.equal(choices.length, decoderLayers * heads + 1);
    for (const [i, measured] of MEASURED.heads.entries()) {
      assert.equal(choices[i].key, `${measured.layer + 1}.${measured.head + 1}`);
      assert.equal(
        choices[i].label,
        `layer ${measured.layer + 1} \u00b7 head ${measured.head + 1}`,
      );
      assert.deepEqual(
        [choices[i].aligned, choices[i].checkable, choices[i].score],
        [measured.aligned, measured.checkable, measured.aligned / measured.checkable],
      );
    }
    const mean = choices[choices.length - 1];
    assert.equal(mean.key, text.MEAN);
    assert.equal(mean.score, MEASURED.alignment.aligned / MEASURED.alignment.checkable);
  });

  test('each is labelled with its measured score', () => {
    assert.equal(
      text.scoreLabel(share(MEASURED.heads[0])),
      `${share(MEASURED.heads[0]).toFixed(2)} aligned`,
    );
    assert.equal(text.scoreLabel(0.625), '0.63 aligned');
  });

  test('a head the model has is taken; anything else draws the mean', () => {
    assert.equal(text.headOf('1.2', choices), '1.2');
    assert.equal(text.headOf('2.4', choices), '2.4');
    for (const value of ['0.0', '9.9', '1.2.3', '', null, undefined, 12, 'toString', '<b>']) {
      assert.equal(text.headOf(value, choices), text.MEAN, String(value));
    }
  });

  test('a link sets a head of the form layer.head or mean, a known search, any sentence', () => {
    const taken = acceptSettings(SETTINGS, { head: '1.2', search: 'greedy', sentence: 'Hi.' });
    assert.deepEqual(taken, { head: '1.2', search: 'greedy', sentence: 'Hi.' });
    assert.deepEqual(acceptSettings(SETTINGS, { head: 'x.1', search: 'beam 9' }), {});
  });
});

describe('the head drawn', () => {
  const sentence = 'Enter the name of the new file.';
  const result = transformer.translate(sentence, { beam: info.measuredBeam });
  const [w, n] = [result.target.length, result.source.length];

  test('each head’s rows are its map of crossAttention, every row adding up to 1', () => {
    const cross = /** @type {NonNullable<typeof result.crossAttention>} */ (result.crossAttention);
    for (let layer = 0; layer < cross.layers; layer++) {
      for (let head = 0; head < cross.heads; head++) {
        const rows = text.headRows(result, text.headKey(layer, head));
        const start = (layer * cross.heads + head) * w * n;
        assert.deepEqual(
          Array.from(rows),
          Array.from(cross.weights.subarray(start, start + w * n)),
        );
        for (const sum of rowSums(rows, w, n)) assert.ok(Math.abs(sum - 1) < 1e-5, `${sum}`);
      }
    }
  });

  test('the mean is the rows the recurrent-style `weights` give', () => {
    assert.equal(text.headRows(result, text.MEAN), result.weights);
  });

  test('its facts are its own numbers from the report, against the diagonal guess', () => {
    const choices = text.headChoices(info);
    const measured = MEASURED.heads[1];
    const line = text.headFactsText(info, choices[1]);
    assert.match(line, /^Layer 1 \u00b7 head 2 on the test split:/);
    assert.ok(
      line.includes(
        `${measured.aligned.toLocaleString('en')} of ${measured.checkable.toLocaleString('en')}`,
      ),
      line,
    );
    assert.ok(line.includes(`(${share(measured).toFixed(3)})`), line);
    assert.ok(line.includes(MEASURED.alignment.diagonalScore.toFixed(3)), line);
    const mean = text.headFactsText(info, choices[choices.length - 1]);
    assert.match(
      mean,
      new RegExp(`^The mean of the last layer\u2019s ${REPORT.sizes.heads} heads`),
    );
    assert.ok(mean.includes(`(${share(MEASURED.alignment).toFixed(3)})`), mean);
  });

  test('which heads align better than the diagonal guess and which do not, from the numbers', () => {
    const line = text.headsSplitText(info);
    const diagonal = MEASURED.alignment.diagonalScore;
    const name = (h) => `layer ${h.layer + 1} \u00b7 head ${h.head + 1}`;
    const above = MEASURED.heads.filter((h) => share(h) > diagonal).map(name);
    const below = MEASURED.heads.filter((h) => share(h) <= diagonal).map(name);
    if (above.length > 0) assert.ok(line.includes(`: ${above.join(', ')}.`), line);
    if (below.length > 0) assert.ok(line.includes(`No better than it: ${below.join(', ')}.`), line);
    const best = MEASURED.heads.reduce((a, b) => (share(b) > share(a) ? b : a));
    assert.ok(
      line.includes(`The best single head is ${name(best)}, at ${share(best).toFixed(3)}.`),
    );
    // Invented numbers: every head above the guess, and the mean below the best head.
    const invented = {
      ...info,
      heads: [{ layer: 0, head: 0, checkable: 10, aligned: 9, score: 0.9 }],
      alignment: { checkable: 10, aligned: 5, score: 0.5, diagonalScore: 0.1 },
    };
    assert.equal(
      text.headsSplitText(/** @type {any} */ (invented)),
      'Better than the diagonal guess (0.100): layer 1 \u00b7 head 1. Every head beats it. The ' +
        'best single head is layer 1 \u00b7 head 1, at 0.900. The last layer\u2019s mean scores ' +
        '0.500, no better than any single head.',
    );
  });
});

describe('the search', () => {
  test('greedy is a beam of 1; beam is the one the report was measured with', () => {
    assert.equal(text.beamOf('greedy', info), 1);
    assert.equal(text.beamOf('beam', info), REPORT.decoding.beam);
    assert.equal(text.searchOf('greedy'), 'greedy');
    assert.equal(text.searchOf('beam 4'), 'beam');
    assert.equal(text.searchOf(undefined, 'greedy'), 'greedy');
    assert.match(text.searchText(REPORT.decoding.beam), new RegExp(`${REPORT.decoding.beam} wide`));
    assert.match(text.searchText(1), /greedily/);
  });
});

describe('the three translators', () => {
  const three = text.threeTranslators({
    fixedVector: fixedVector.info,
    attention: attention.info,
    transformer: info,
  });

  test('BLEU by English length of each, from the two reports, on the same test pairs', () => {
    const byLength = (entry) => entry.bleu.buckets.map((b) => b.bleu);
    assert.deepEqual(
      three.lines.map((line) => line.values),
      [
        byLength(LESSON_1.models['fixed-vector']),
        byLength(LESSON_1.models.attention),
        byLength(MEASURED),
      ],
    );
    assert.deepEqual(
      three.lines.map((line) => line.overall),
      [
        LESSON_1.models['fixed-vector'].bleu.overall.bleu,
        LESSON_1.models.attention.bleu.overall.bleu,
        MEASURED.bleu.overall.bleu,
      ],
    );
    assert.equal(three.testPairs, REPORT.corpus.testPairs);
    assert.equal(three.testPairs, LESSON_1.corpus.testPairs);
    assert.equal(three.names.length, MEASURED.bleu.buckets.length);
  });

  test('the caption names the test split, and the lead line its numbers', () => {
    const pairs = REPORT.corpus.testPairs.toLocaleString('en');
    assert.match(
      text.compareCaption(three.testPairs),
      new RegExp(`same ${pairs} held-out test pairs and references`),
    );
    const lead = text.compareLeadText(three);
    assert.ok(lead.includes(`Over all ${pairs} pairs`), lead);
    const first = MEASURED.bleu.buckets[0].bleu - LESSON_1.models.attention.bleu.buckets[0].bleu;
    assert.ok(lead.includes(`lead over attention is ${first.toFixed(2)} at`), lead);
  });

  test('reports scored on other test pairs are refused', () => {
    const other = {
      ...info,
      bleu: { ...info.bleu, overall: { ...info.bleu.overall, sentences: 9 } },
    };
    assert.throws(
      () =>
        text.threeTranslators({
          fixedVector: fixedVector.info,
          attention: attention.info,
          transformer: /** @type {any} */ (other),
        }),
      /different test pairs/,
    );
  });
});

describe('what the views declare', () => {
  test('the heads view needs the Transformer alone, the compare view lesson 1’s models too', () => {
    assert.equal(viewOf('nonsense'), 'heads');
    assert.deepEqual(modelsOf({ view: 'heads' }), ['transformer']);
    assert.deepEqual(needsOf([{ type: 'transformer', props: { view: 'heads' } }]), {
      vectors: true,
      models: ['transformer'],
    });
    assert.deepEqual(needsOf([{ type: 'transformer', props: { view: 'compare' } }]), {
      vectors: true,
      models: ['transformer', 'translation'],
    });
    // By name alone, a page preloads for every view.
    assert.deepEqual(needsOf(['transformer']).models, ['transformer', 'translation']);
  });
});

describe('inside the encoder', () => {
  const heads = encoderText.encoderHeadChoices(info);
  const ENCODER = MEASURED.encoder;
  const translation = transformer.translate('The tired animal did not cross the street.');
  const trace = /** @type {any} */ (translation.encoder);
  const n = translation.source.length;

  test('every encoder head, layer-major from 1, with the shares the report measured', () => {
    const { encoderLayers, heads: perLayer } = REPORT.sizes;
    assert.equal(heads.length, encoderLayers * perLayer);
    for (const [i, measured] of ENCODER.heads.entries()) {
      assert.equal(heads[i].key, `${measured.layer + 1}.${measured.head + 1}`);
      assert.deepEqual(heads[i].shares, {
        previous: measured.previous,
        self: measured.self,
        next: measured.next,
      });
    }
    assert.equal(encoderText.headTag({ previous: 0.9, self: 0.02, next: 0 }), '0.90 word before');
    assert.equal(encoderText.headTag({ previous: 0.1, self: 0.3, next: 0.2 }), '0.30 word itself');
    assert.equal(encoderText.headTag(null), '');
    assert.equal(encoderText.encoderHeadOf('2.1', heads), '2.1');
    for (const value of ['mean', '3.1', '', null, 7]) {
      assert.equal(encoderText.encoderHeadOf(value, heads), '1.1', String(value));
    }
  });

  test('a head’s rows are its map of the trace; its facts its own shares', () => {
    const head = /** @type {any} */ (heads.find((h) => h.key === '2.1'));
    const rows = encoderText.encoderHeadRows(trace, n, head);
    assert.deepEqual(
      Array.from(rows),
      Array.from(
        trace.weights.subarray((1 * trace.heads + 0) * n * n, (1 * trace.heads + 1) * n * n),
      ),
    );
    const facts = encoderText.encoderHeadFactsText(info, head);
    const percent = (x) => `${Math.round(x * 100)}%`;
    assert.ok(facts.startsWith('Layer 2 \u00b7 head 1 on the 2,161 test sentences'), facts);
    assert.ok(facts.includes(`the word before for ${percent(head.shares.previous)}`), facts);
  });

  test('each measure draws a word a row, and the three sizes share one scale', () => {
    const size = encoderText.streamMatrix(trace, n, 'size');
    const read = encoderText.streamMatrix(trace, n, 'read');
    const write = encoderText.streamMatrix(trace, n, 'write');
    const kept = encoderText.streamMatrix(trace, n, 'kept');
    assert.deepEqual(size.columns, ['input', '+ attn 1', '+ FFN 1', '+ attn 2', '+ FFN 2']);
    assert.deepEqual(read.columns, ['attn 1', 'FFN 1', 'attn 2', 'FFN 2']);
    assert.deepEqual(size.range, read.range);
    assert.deepEqual(size.range, write.range);
    assert.equal(size.range[1], Math.max(...trace.streamRms, ...trace.readRms, ...trace.writeRms));
    assert.deepEqual(kept.range, [0, 1]);
    // Word i's row: its value at every stage, from the trace's stage-major rows.
    for (let i = 0; i < n; i++) {
      for (let s = 0; s < 5; s++) {
        assert.equal(size.values[i * 5 + s], trace.streamRms[s * n + i]);
        assert.equal(kept.values[i * 5 + s], trace.inputCosine[s * n + i]);
      }
      for (let k = 0; k < 4; k++) {
        assert.equal(read.values[i * 4 + k], trace.readRms[k * n + i]);
        assert.equal(write.values[i * 4 + k], trace.writeRms[k * n + i]);
      }
    }
    assert.equal(encoderText.measureOf('kept'), 'kept');
    assert.equal(encoderText.measureOf('nonsense'), 'size');
  });

  test('what the report measured on the test split, by measure, in its own numbers', () => {
    const two = (x) => x.toFixed(2);
    const percent = (x) => `${Math.round(x * 100)}%`;
    assert.ok(
      encoderText
        .streamFactsText(info, 'size')
        .endsWith(`${ENCODER.stages.map((stage) => two(stage.streamRms)).join(', ')}.`),
    );
    const readFacts = encoderText.streamFactsText(info, 'read');
    assert.ok(
      readFacts.includes(ENCODER.sublayers.map((x) => percent(x.streamSpread)).join(', ')),
      readFacts,
    );
    assert.ok(
      readFacts.includes(ENCODER.sublayers.map((x) => percent(x.readSpread)).join(', ')),
      readFacts,
    );
    assert.ok(
      encoderText
        .streamFactsText(info, 'write')
        .includes(`feed-forward 1 ${two(ENCODER.sublayers[1].writeRms)}`),
    );
    assert.ok(
      encoderText
        .streamFactsText(info, 'kept')
        .endsWith(`${two(ENCODER.stages.at(-1).inputCosine)}.`),
    );
    assert.equal(encoderText.streamFactsText({ ...info, encoderStats: null }, 'size'), '');
  });

  test('what the measure shows on the sentence, from its trace', () => {
    const mean = (values, r) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += values[r * n + i];
      return (sum / n).toFixed(2);
    };
    const size = encoderText.streamLineText(trace, n, 'size');
    assert.ok(size.includes(`averages ${mean(trace.streamRms, 0)} at the input`), size);
    assert.ok(size.includes(`and ${mean(trace.streamRms, 4)} after both layers`), size);
    // The stream keeps the word's vector only where every word's cosine is 0.3 or more.
    const cosines = (last) => ({
      layers: 1,
      inputCosine: Float32Array.from([1, 1, 0.9, 0.8, ...last]),
    });
    const kept = encoderText.streamLineText(/** @type {any} */ (cosines([0.5, 0.4])), 2, 'kept');
    assert.match(kept, /cosine of 0\.40 to 0\.50 .*own vector is still in its stream/);
    const lost = encoderText.streamLineText(/** @type {any} */ (cosines([0.5, 0.1])), 2, 'kept');
    assert.match(lost, /cosine of 0\.10 to 0\.50 .*outweighs the word’s own vector/);
    const read = encoderText.streamLineText(trace, n, 'read');
    const low = Math.min(...trace.readRms.subarray(0, n)).toFixed(2);
    assert.ok(read.includes(`hands it, from ${low} to`), read);
  });

  test('the encoder views need the Transformer alone; a link sets a known measure', () => {
    assert.equal(viewOf('encoder'), 'encoder');
    assert.equal(viewOf('stream'), 'stream');
    assert.deepEqual(modelsOf({ view: 'encoder' }), ['transformer']);
    assert.deepEqual(modelsOf({ view: 'stream' }), ['transformer']);
    assert.deepEqual(acceptSettings(SETTINGS, { measure: 'read', head: '2.1' }), {
      measure: 'read',
      head: '2.1',
    });
    assert.deepEqual(acceptSettings(SETTINGS, { measure: 'everything' }), {});
  });
});

describe('the page loader', () => {
  const PUBLIC = pathToFileURL(join(ROOT, 'web/public/'));
  const realFetch = globalThis.fetch;
  /** @type {Set<string>} files whose download fails */
  const failing = new Set();
  /** @type {string[]} */
  const fetched = [];
  globalThis.document = /** @type {any} */ ({ baseURI: PUBLIC.href });
  globalThis.fetch = /** @type {any} */ (
    async (url) => {
      const path = new URL(url).pathname;
      fetched.push(path.slice(PUBLIC.pathname.length));
      if (failing.has(path.slice(PUBLIC.pathname.length))) {
        return new Response('', { status: 404, statusText: 'Not Found' });
      }
      return new Response(readFileSync(new URL(url)));
    }
  );

  test('the table names it with its size and its own error', () => {
    const entry = TRAINED_MODELS.transformer;
    assert.equal(entry.loading, 'Loading the Transformer translator (about 3.5 MB)\u2026');
    assert.equal(entry.Unavailable, loader.TransformerUnavailable);
    assert.equal(entry.loadOnce, loader.loadTransformerOnce);
  });

  test('a failed download is the learner’s message, and the next call tries again', async () => {
    failing.add('models/transformer.bin');
    const original = console.warn;
    console.warn = () => {};
    try {
      await assert.rejects(loader.loadTransformerOnce(pageEngine), (error) => {
        assert.ok(error instanceof loader.TransformerUnavailable);
        assert.match(error.message, /^The Transformer translator could not be loaded/);
        return true;
      });
    } finally {
      console.warn = original;
      failing.clear();
    }
    assert.equal(loader.loadedTransformer(pageEngine), undefined);
  });

  test('loads the Transformer once, from its own files, and none of lesson 1’s', async () => {
    fetched.length = 0;
    const [first, second] = await Promise.all([
      loader.loadTransformerOnce(pageEngine),
      loader.loadTransformerOnce(pageEngine),
    ]);
    assert.equal(first, second);
    assert.equal(loader.loadedTransformer(pageEngine), first);
    assert.equal(first.info.model, 'transformer');
    assert.equal(first.info.parameters, MEASURED.parameters);
    assert.deepEqual(fetched.filter((path) => path.startsWith('models/')).sort(), [
      'models/transformer.bin',
      'models/transformer.json',
    ]);
    assert.equal(pageEngine.translators, null);
    assert.ok(first.translate('The house is small.').target.length > 0);
    globalThis.fetch = realFetch;
  });
});
