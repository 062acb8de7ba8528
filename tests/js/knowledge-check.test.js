// The knowledge check asks one question on each central idea the slides teach. slides/quiz.yaml's
// `check` names the eight ideas once each, in the slides' order; each idea's item comes from a
// slide whose body teaches that idea, and no checked question is about something only the notes
// or the article teach. The rules are also run on broken checks, to show that they catch them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { loadEngine, loadLanguageModel, loadTranslator } from 'attention-lab';

import { ContentError, loadLesson } from '../../web/build/content.js';
import { checkQuiz } from '../../web/build/schema.js';
import { generators } from '../../web/src/quiz/generators/index.js';
import { ROOT } from './helpers.js';

/**
 * Lesson 1's central ideas, in the slides' order: the slides that teach each one (a checked
 * item's `slide` must be one of them), and words each of those slides' bodies holds for it, so that
 * the idea is taught on the slide and not only in its notes or article.
 */
const IDEAS = [
  { idea: 'bottleneck', slides: ['bottleneck'], words: /fixed[- ](length|size)/i },
  { idea: 'weighted-retrieval', slides: ['weighted-retrieval'], words: /sum to 1/i },
  {
    idea: 'queries-keys-values',
    slides: ['query-key-value'],
    words: /\bQuery\b[\s\S]*\bKey\b[\s\S]*\bValue\b/,
  },
  { idea: 'scaling', slides: ['scaled-dot-product', 'why-scale'], words: /\\sqrt\{d_k\}/ },
  { idea: 'masks', slides: ['scaled-dot-product'], words: /causal mask/i },
  { idea: 'multi-head', slides: ['multi-head'], words: /each head/i },
  {
    idea: 'self-versus-cross',
    slides: ['self-attention', 'cross-attention'],
    words: /\b(one|two) sequences?\b/i,
  },
  { idea: 'position', slides: ['position'], words: /permutation/i },
];

/** Lesson 2's central ideas, as IDEAS is lesson 1's. */
const TRANSFORMER_IDEAS = [
  { idea: 'no-recurrence', slides: ['recurrence'], words: /in one step/i },
  { idea: 'position', slides: ['positions'], words: /permutation/i },
  { idea: 'encoder-layer', slides: ['encoder-layer'], words: /each position on its own/i },
  { idea: 'residual-and-norm', slides: ['add-and-norm'], words: /pre-LN/ },
  { idea: 'decoder-layer', slides: ['decoder-layer'], words: /masked/i },
  { idea: 'heads', slides: ['heads'], words: /each head/i },
  { idea: 'training', slides: ['training'], words: /teacher forcing/i },
  { idea: 'decoding', slides: ['decoding'], words: /key-value cache/i },
  { idea: 'comparison', slides: ['three-translators'], words: /BLEU/ },
];

/** Each lesson's central ideas, by its key. */
const IDEAS_OF = { attention: IDEAS, transformer: TRANSFORMER_IDEAS };

/**
 * What the notes and the articles teach and no slide's body does, so a check question may not ask
 * about it; it belongs in the practice bank.
 */
const NOTES_ONLY = [
  { topic: 'induction heads', words: /induction/i },
  { topic: 'previous-token heads', words: /previous[- ]token/i },
  { topic: 'the additive and general scores', words: /additive|general score|\\tanh/i },
];

/** Draws of a live item read for its topic: enough to see several of its sentences. */
const LIVE_DRAWS = 6;

/** @param {string} html @returns {string} its text, tags dropped (KaTeX keeps its TeX source) */
const text = (html) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * A small seeded generator (mulberry32): () => number in [0, 1).
 * @param {number} seed
 */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** @type {import('attention-lab').Engine} */
let engine;
before(async () => {
  engine = await loadEngine();
  // Live questions on the trained models find them in the engine, as on the page.
  await loadLanguageModel({ engine });
  await loadTranslator({ engine });
});

/**
 * What a learner reads of an item: a static item's prompt, choices and explanation; a live item's
 * as its generator writes them over a few seeded draws.
 * @param {Record<string, any>} item as loadLesson renders it
 * @returns {string}
 */
function itemText(item) {
  if (!item.generator) {
    return [item.promptHtml, ...item.choicesHtml, item.explanationHtml].map(text).join('\n');
  }
  const random = seeded(2026);
  return Array.from({ length: LIVE_DRAWS }, () => {
    const q = generators[item.generator](engine, random);
    return [q.promptHtml, ...q.choicesHtml, q.explanationHtml].map(text).join('\n');
  }).join('\n');
}

/**
 * Every way `ideas` breaks the rules of the knowledge check, as sentences ([] when it keeps them).
 * @param {Array<{ idea: string, item: string }>} ideas the check, as loadLesson gives it
 * @param {ReturnType<typeof loadLesson>} lesson the rest of the lesson: slides and items
 * @returns {string[]}
 */
function checkProblems(ideas, lesson) {
  const problems = [];
  const taught = IDEAS_OF[lesson.lesson.key];
  const named = ideas.map(({ idea }) => idea);
  const expected = taught.map(({ idea }) => idea);
  for (const idea of expected) {
    const count = named.filter((name) => name === idea).length;
    if (count !== 1) problems.push(`${idea} is asked ${count} times`);
  }
  for (const idea of named) if (!expected.includes(idea)) problems.push(`${idea} is no idea`);
  if (problems.length === 0 && named.join() !== expected.join()) {
    problems.push(`the ideas are not in the slides' order: ${named.join(', ')}`);
  }
  const items = new Map(lesson.quiz.items.map((item) => [item.id, item]));
  for (const { idea, item: id } of ideas) {
    const item = items.get(id);
    if (!item) {
      problems.push(`${idea}: ${id} is no item`);
      continue;
    }
    const teaching = taught.find((entry) => entry.idea === idea)?.slides ?? [];
    if (!teaching.includes(item.slide)) {
      problems.push(`${idea}: ${id} belongs to ${item.slide}, which does not teach ${idea}`);
    }
    const read = itemText(item);
    for (const { topic, words } of NOTES_ONLY) {
      if (words.test(read)) problems.push(`${idea}: ${id} asks about ${topic}`);
    }
  }
  return problems;
}

describe('the knowledge check in slides/quiz.yaml', () => {
  const lesson = loadLesson(path.join(ROOT, 'slides', 'attention'));
  const slides = new Map(lesson.slides.map((slide) => [slide.id, slide]));
  const { ideas } = lesson.quiz;

  test('names each of the eight central ideas exactly once, in the order the slides teach them', () => {
    assert.deepEqual(
      ideas.map(({ idea }) => idea),
      IDEAS.map(({ idea }) => idea),
    );
    assert.deepEqual(
      lesson.quiz.check,
      ideas.map(({ item }) => item),
      'the check asks the items of its ideas, in order',
    );
  });

  test('every slide said to teach an idea exists and teaches it in its body', () => {
    for (const { idea, slides: teaching, words } of IDEAS) {
      for (const id of teaching) {
        const slide = slides.get(id);
        assert.ok(slide, `${idea}: no slide has the id ${id}`);
        assert.match(text(slide.html), words, `${idea}: the body of ${slide.file}`);
      }
    }
  });

  test('only the notes and the articles teach the topics a check question may not ask about', () => {
    for (const { topic, words } of NOTES_ONLY) {
      const inBodies = lesson.slides.filter((slide) => words.test(text(slide.html)));
      assert.deepEqual(
        inBodies.map((slide) => slide.file),
        [],
        `${topic} is on a slide, so a check question may ask about it`,
      );
      const inNotes = lesson.slides.some((slide) =>
        words.test(text(slide.notesHtml) + text(slide.articleHtml)),
      );
      assert.ok(inNotes, `${topic} is taught nowhere; take it off NOTES_ONLY`);
    }
  });

  test("each idea's item exists, comes from a slide that teaches the idea and asks nothing the slides leave to the notes", () => {
    assert.deepEqual(checkProblems(ideas, lesson), []);
  });

  test('the rules catch a check that misses an idea, asks one twice or asks the wrong thing', () => {
    const swap = (idea, item) =>
      ideas.map((entry) => (entry.idea === idea ? { idea, item } : entry));
    // Induction heads, which only the notes and the article teach, asked in place of position.
    const old = [
      ...ideas.filter(({ idea }) => idea !== 'position'),
      { idea: 'position', item: 'live-induction-head' },
    ];
    assert.deepEqual(checkProblems(old, lesson), [
      'position: live-induction-head belongs to multi-head, which does not teach position',
      'position: live-induction-head asks about induction heads',
    ]);
    assert.deepEqual(checkProblems(swap('multi-head', 'live-induction-head'), lesson), [
      'multi-head: live-induction-head asks about induction heads',
    ]);
    assert.deepEqual(checkProblems(swap('masks', 'scale-saturation'), lesson), [
      'masks: scale-saturation belongs to why-scale, which does not teach masks',
    ]);
    assert.deepEqual(
      checkProblems(swap('weighted-retrieval', 'retrieval-additive-scalar'), lesson),
      ['weighted-retrieval: retrieval-additive-scalar asks about the additive and general scores'],
    );
    assert.deepEqual(checkProblems(ideas.slice(0, -1), lesson), ['position is asked 0 times']);
    assert.deepEqual(checkProblems([...ideas, ideas[0]], lesson), ['bottleneck is asked 2 times']);
    assert.deepEqual(checkProblems([...ideas, { idea: 'induction', item: 'qkv-shape' }], lesson), [
      'induction is no idea',
      'induction: qkv-shape belongs to query-key-value, which does not teach induction',
    ]);
    assert.deepEqual(checkProblems([...ideas].reverse(), lesson), [
      `the ideas are not in the slides' order: ${[...IDEAS]
        .reverse()
        .map(({ idea }) => idea)
        .join(', ')}`,
    ]);
    assert.deepEqual(checkProblems(swap('position', 'no-such-item'), lesson), [
      'position: no-such-item is no item',
    ]);
  });
});

describe("lesson 2's knowledge check in slides/transformer/quiz.yaml", () => {
  const lesson = loadLesson(path.join(ROOT, 'slides', 'transformer'));
  const slides = new Map(lesson.slides.map((slide) => [slide.id, slide]));
  const { ideas } = lesson.quiz;

  test('names each of its nine central ideas exactly once, in the order the slides teach them', () => {
    assert.deepEqual(
      ideas.map(({ idea }) => idea),
      TRANSFORMER_IDEAS.map(({ idea }) => idea),
    );
  });

  test('every slide said to teach an idea teaches it in its body', () => {
    for (const { idea, slides: teaching, words } of TRANSFORMER_IDEAS) {
      for (const id of teaching) {
        const slide = slides.get(id);
        assert.ok(slide, `${idea}: no slide has the id ${id}`);
        assert.match(text(slide.html), words, `${idea}: the body of ${slide.file}`);
      }
    }
  });

  test("each idea's item exists and comes from a slide that teaches the idea", () => {
    assert.deepEqual(checkProblems(ideas, lesson), []);
    const swapped = ideas.map((entry) =>
      entry.idea === 'decoding' ? { idea: 'decoding', item: 'training-warm-up' } : entry,
    );
    assert.deepEqual(checkProblems(swapped, lesson), [
      'decoding: training-warm-up belongs to training, which does not teach decoding',
    ]);
  });

  test('the knowledge-check slide says how many questions it asks', () => {
    const check = slides.get('knowledge-check');
    assert.match(text(check?.html ?? ''), /^\s*Nine quick questions/);
    assert.equal(ideas.length, 9);
  });
});

describe('the loader reads `check` as a list of ideas, each with its item', () => {
  const FILE = 'slides/quiz.yaml';
  const SLIDES = new Set(['intro']);
  const items = [
    { id: 'one', slide: 'intro', generator: 'causal-zeros' },
    { id: 'two', slide: 'intro', generator: 'largest-weight' },
  ];

  /**
   * Asserts that checkQuiz refuses `check`, naming the field and the problem.
   * @param {unknown} check
   * @param {string} field
   * @param {RegExp} problem
   */
  function refuses(check, field, problem) {
    assert.throws(
      () => checkQuiz({ check, items }, FILE, SLIDES),
      (err) => {
        assert.ok(err instanceof ContentError, `expected a ContentError, got ${err}`);
        assert.equal(err.field, field);
        assert.match(err.message, problem);
        return true;
      },
    );
  }

  test('keeps the pairs as written', () => {
    const check = [
      { idea: 'masks', item: 'one' },
      { idea: 'scaling', item: 'two' },
    ];
    assert.deepEqual(checkQuiz({ check, items }, FILE, SLIDES).check, check);
  });

  test('refuses an idea named twice, an item asked twice, an unknown item and a bare id', () => {
    const one = { idea: 'masks', item: 'one' };
    refuses(
      [one, { idea: 'masks', item: 'two' }],
      'check[1].idea',
      /"masks" is already the idea of check\[0\]/,
    );
    refuses(
      [one, { idea: 'scaling', item: 'one' }],
      'check[1].item',
      /"one" is already asked in check\[0\]/,
    );
    refuses([{ idea: 'masks', item: 'three' }], 'check[0].item', /"three" is not the id/);
    refuses(['one'], 'check[0]', /must be a mapping/);
    refuses([{ item: 'one' }], 'check[0].idea', /is required/);
    refuses([{ idea: 'Masks!', item: 'one' }], 'check[0].idea', /must be a kebab-case string/);
    refuses([], 'check', /must list at least one idea/);
  });
});
