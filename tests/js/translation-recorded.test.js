// The figures the page draws before its translators have loaded are what the models compute:
// every recording in web/src/widgets/translation/recorded.json is made again here from the
// committed models, bit for bit, and every slide that opens on the alignment view has one. The
// title slide's words about its sentence are checked against the same numbers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

import { loadLesson } from '../../web/build/content.js';
import {
  RECORDED,
  loadBothTranslators,
  recordedSentences,
} from '../../tools/translation/record-views.js';
import { recordAlignment, recordedAlignment } from '../../web/src/widgets/translation/record.js';

const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention', import.meta.url)));
const recordings = JSON.parse(readFileSync(RECORDED, 'utf8'));
const models = await loadBothTranslators();

describe('recorded translation figures', () => {
  test('every slide that opens on the alignment view has its sentence recorded, once', () => {
    const sentences = recordedSentences(lesson);
    assert.ok(sentences.length >= 1, 'the title slide opens on the alignment view');
    assert.deepEqual(
      recordings.map((r) => r.sentence),
      sentences,
      'run `npm run record:translation` after changing a slide',
    );
  });

  test('each recording is the attention model’s view of its sentence, bit for bit', () => {
    for (const recorded of recordings) {
      const fresh = JSON.parse(JSON.stringify(recordAlignment(models, recorded.sentence)));
      assert.deepEqual(recorded, fresh, `“${recorded.sentence}”: run npm run record:translation`);
    }
  });

  test('a recording reads back as the translation the figures draw', () => {
    const [first] = recordings;
    const read = recordedAlignment(recordings, first.sentence);
    assert.ok(read);
    const live = models.attention.translate(first.sentence, {
      beam: models.attention.info.measuredBeam,
    });
    assert.deepEqual(Array.from(read.translation.weights), Array.from(live.weights));
    assert.deepEqual(read.translation.output, live.output);
    assert.equal(recordedAlignment(recordings, `${first.sentence} `), undefined);
  });

  test('what the title slide says of its sentence holds for the model', () => {
    const title = lesson.slides.find((s) => s.id === 'title');
    const sentence = String(title?.widget?.props?.sentence);
    // The alignment view searches with the report's beam.
    const t = models.attention.translate(sentence, { beam: models.attention.info.measuredBeam });
    const n = t.source.length;
    /** @param {string} german @param {string} english @returns {number} */
    const weight = (german, english) =>
      t.weights[t.output.indexOf(german) * n + t.source.indexOf(english)];
    const text = readFileSync(
      new URL('../../slides/attention/01-title.md', import.meta.url),
      'utf8',
    );
    // "the row of kinder puts nearly all its weight on children", and "arena", the wrong word
    // for garden, "still puts 0.91 on garden"
    assert.ok(weight('kinder', 'children') >= 0.9, 'kinder on children');
    assert.ok(!t.output.includes('garten'), 'the model does not write garten');
    const arena = weight('arena', 'garden').toFixed(2);
    assert.ok(text.includes(`the row of "arena"`) && text.includes(`${arena} of its weight on`));
    assert.ok(text.includes(`still puts ${arena} on "garden"`), `arena: ${arena} on garden`);
  });
});
