// The quiz: session logic on plain items, and each live generator with the real engine and a
// seeded random source, its answer checked by an independent computation here.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { loadEngine, loadLanguageModel, loadTranslator } from 'attention-lab';

import { createSession } from '../../web/src/quiz/session.js';
import { generators } from '../../web/src/quiz/generators/index.js';
import { SENTENCES } from '../../web/src/quiz/generators/causal-zeros.js';
import { escapeHtml } from '../../web/src/quiz/generators/shared.js';

/** @type {import('attention-lab').Engine} */
let engine;
/** @type {import('attention-lab').LanguageModel} */
let model;
/** @type {import('attention-lab').Translator} */
let translator;
before(async () => {
  engine = await loadEngine();
  // The live questions on the trained models find them in the engine, as on the page.
  model = await loadLanguageModel({ engine });
  translator = await loadTranslator({ engine });
});

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

/** @param {string} html @returns {string} the text, tags dropped, entities read */
const text = (html) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** @param {string} s a number as the quiz prints it (true minus sign, commas) */
const number = (s) => Number(s.replace('\u2212', '-').replace(/,/g, ''));

/** @param {string} html @returns {string[][]} the text of each table row's cells */
const tableRows = (html) =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map(([, row]) =>
    [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map(([, cell]) => text(cell)),
  );

const ALLOWED_TAGS = new Set(
  'p div table caption thead tbody tr th td var sub sup strong span'.split(' '),
);

/**
 * HTML a generator produced holds only the expected tags, and every & starts an entity.
 * @param {string} html
 */
function assertSafeHtml(html) {
  for (const [, tag] of html.matchAll(/<\/?([a-zA-Z0-9]+)/g)) {
    assert.ok(ALLOWED_TAGS.has(tag.toLowerCase()), `unexpected tag <${tag}> in ${html}`);
  }
  assert.doesNotMatch(html, /&(?!(amp|lt|gt|quot|#39);)/, `a bare & in ${html}`);
  assert.doesNotMatch(html, /\son\w+=/i, 'no event handler attributes');
}

const STATIC = [
  {
    id: 'one',
    slide: 's1',
    promptHtml: '<p>One?</p>',
    choicesHtml: ['a', 'b', 'c'],
    answer: 1,
    explanationHtml: '<p>Because one.</p>',
  },
  {
    id: 'two',
    slide: 's2',
    promptHtml: '<p>Two?</p>',
    choicesHtml: ['x', 'y'],
    answer: 0,
    explanationHtml: '<p>Because two.</p>',
  },
];

describe('a quiz session', () => {
  test('walks through the questions, scoring right and wrong answers', () => {
    const session = createSession(STATIC);
    assert.deepEqual(session.score, { right: 0, answered: 0, total: 2 });
    assert.equal(session.done, false);
    const first = session.current();
    assert.equal(first.id, 'one');
    assert.equal(first.index, 0);
    assert.equal(first.total, 2);
    assert.equal(first.result, null);
    assert.equal('answer' in first, false, 'the answer is not shown before answering');

    const right = session.answer(1);
    assert.deepEqual(right, {
      choiceIndex: 1,
      correct: true,
      correctIndex: 1,
      explanationHtml: '<p>Because one.</p>',
    });
    assert.deepEqual(session.score, { right: 1, answered: 1, total: 2 });
    assert.deepEqual(session.current().result, right);

    session.next();
    const wrong = session.answer(1);
    assert.equal(wrong.correct, false);
    assert.equal(wrong.correctIndex, 0);
    assert.equal(wrong.explanationHtml, '<p>Because two.</p>', 'explained when wrong too');
    assert.deepEqual(session.score, { right: 1, answered: 2, total: 2 });
    assert.equal(session.done, false, 'done only after moving past the last question');

    session.next();
    assert.equal(session.done, true);
    assert.equal(session.current(), null);
    assert.throws(() => session.answer(0), /every question has been answered/);
  });

  test('counts a question once, however often it is answered', () => {
    const session = createSession(STATIC);
    session.answer(0);
    const again = session.answer(1);
    assert.equal(again.choiceIndex, 0);
    assert.equal(again.correct, false);
    assert.deepEqual(session.score, { right: 0, answered: 1, total: 2 });
  });

  test('refuses bad choices and moving on without an answer', () => {
    const session = createSession(STATIC);
    assert.throws(() => session.next(), /answer the question before moving on/);
    for (const bad of [-1, 3, 1.5, NaN, '1']) {
      assert.throws(() => session.answer(/** @type {any} */ (bad)), RangeError);
    }
    assert.deepEqual(session.score, { right: 0, answered: 0, total: 2 });
  });

  test('restart clears the score and starts from the first question', () => {
    const session = createSession(STATIC);
    session.answer(1);
    session.next();
    session.answer(0);
    session.next();
    assert.equal(session.attempt, 1);
    session.restart();
    assert.equal(session.attempt, 2);
    assert.equal(session.done, false);
    assert.equal(session.current().index, 0);
    assert.equal(session.current().result, null);
    assert.deepEqual(session.score, { right: 0, answered: 0, total: 2 });
  });

  test('rejects items that can never be asked, naming them', () => {
    assert.throws(
      () => createSession([{ id: 'x', slide: 's', generator: 'nope' }], { engine: {} }),
      /quiz item "x": no generator is named "nope"/,
    );
    assert.throws(
      () => createSession([{ id: 'y', slide: 's', generator: 'causal-zeros' }]),
      /quiz item "y": a live item needs the engine/,
    );
    assert.throws(
      () => createSession([{ ...STATIC[0], answer: 3 }]),
      /quiz item "one": answer must index choicesHtml/,
    );
  });

  test('draws a live item afresh at every attempt, never repeating the last one', () => {
    let calls = 0;
    // A generator that repeats itself every other call: the session draws again until it differs.
    const flaky = () => {
      calls += 1;
      const k = Math.floor(calls / 2);
      return {
        promptHtml: `<p>${k}</p>`,
        choicesHtml: ['a', 'b'],
        answer: k % 2,
        explanationHtml: `<p>${k}</p>`,
      };
    };
    const session = createSession([{ id: 'live', slide: 's', generator: 'flaky' }], {
      engine: {},
      generators: { flaky },
    });
    const prompts = [session.current().promptHtml];
    for (let i = 0; i < 5; i += 1) {
      session.restart();
      prompts.push(session.current().promptHtml);
      assert.notEqual(prompts[i + 1], prompts[i]);
    }
    assert.equal(session.current().live, true);
  });

  test('stores nothing: no storage or cookie in any quiz module', () => {
    const dirs = ['../../web/src/quiz/', '../../web/src/quiz/generators/'];
    for (const dir of dirs) {
      const url = new URL(dir, import.meta.url);
      for (const name of readdirSync(url).filter((file) => file.endsWith('.js'))) {
        const source = readFileSync(new URL(name, url), 'utf8');
        assert.doesNotMatch(source, /localStorage|sessionStorage|indexedDB|cookie/, name);
      }
    }
  });
});

describe('escaping', () => {
  test('escapeHtml makes markup characters harmless', () => {
    assert.equal(
      escapeHtml(`<script>alert("x") & 'y'</script>`),
      '&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;',
    );
  });

  test('sentence text is escaped in the causal-zeros question', () => {
    const index = SENTENCES.indexOf('rock & roll never dies');
    assert.ok(index >= 0);
    const rest = seeded(7);
    let first = true;
    // The first draw picks the sentence; the rest come from the seeded source.
    const random = () => {
      if (!first) return rest();
      first = false;
      return (index + 0.5) / SENTENCES.length;
    };
    const q = generators['causal-zeros'](engine, random);
    assert.match(q.promptHtml, /rock &amp; roll never dies/);
    assert.match(q.explanationHtml, /<th scope="col">&amp;<\/th>/);
    assertSafeHtml(q.promptHtml);
    assertSafeHtml(q.explanationHtml);
  });
});

/**
 * Runs `check` on `count` questions from one seeded stream, and checks what every question must
 * satisfy: distinct choices, an answer in range, safe HTML.
 * @param {string} name
 * @param {number} count
 * @param {(q: ReturnType<typeof generators[string]>) => void} check
 */
function eachDraw(name, count, check) {
  const random = seeded(2024);
  for (let i = 0; i < count; i += 1) {
    const q = generators[name](engine, random);
    assert.equal(new Set(q.choicesHtml).size, q.choicesHtml.length, 'distinct choices');
    assert.ok(Number.isInteger(q.answer) && q.answer >= 0 && q.answer < q.choicesHtml.length);
    for (const html of [q.promptHtml, q.explanationHtml, ...q.choicesHtml]) assertSafeHtml(html);
    check(q);
  }
}

describe('live generators', () => {
  test('every generator the quiz names is here', () => {
    assert.deepEqual(Object.keys(generators).sort(), [
      'alignment-shape',
      'attended-word',
      'causal-zeros',
      'induction-head',
      'largest-weight',
      'next-word',
      'unscaled-variance',
    ]);
  });

  test("induction-head: the weights shown are the model's, and the answer is their largest", () => {
    const best = model.info.heads.reduce((a, b) =>
      b.scores.induction > a.scores.induction ? b : a,
    );
    eachDraw('induction-head', 12, (q) => {
      const words = text(q.promptHtml).match(/written twice: “([^”]+)”/)[1];
      const half = words.split(' ');
      assert.equal(half.length, 12);
      assert.deepEqual(half.slice(0, 6), half.slice(6));
      assert.match(text(q.promptHtml), new RegExp(`head ${best.layer + 1}\\.${best.head + 1}`));
      const run = model.run(words);
      const head = run.heads[best.layer * model.info.headsPerLayer + best.head];
      const rows = tableRows(q.promptHtml).slice(1);
      const query = rows.length - 1;
      assert.ok(
        query >= 7 && query <= 10,
        'a word of the second copy, from the second to the fifth',
      );
      const n = run.tokens.length;
      rows.forEach((row, j) => {
        assert.equal(row[0], `${j + 1}. ${run.tokens[j]}`);
        assert.ok(Math.abs(number(row[1]) - head.weights[query * n + j]) <= 0.005, `weight ${j}`);
      });
      const weights = Array.from({ length: query + 1 }, (_, j) => head.weights[query * n + j]);
      const top = weights.indexOf(Math.max(...weights));
      const k = query - 6;
      const expected =
        top === k + 1
          ? /earlier copy of this word and attends to the word that came after/
          : top === query - 1
            ? /word just before/
            : top === 0
              ? /first word/
              : /this word itself/;
      assert.match(text(q.choicesHtml[q.answer]), expected);
    });
  });

  test("next-word: the answer is the model's most probable word among the choices", () => {
    eachDraw('next-word', 16, (q) => {
      const start = text(q.promptHtml).match(/reads “([^”]+)”/)[1];
      const { next } = model.run(start, { top: 20 });
      const words = next.map((w) => w.word);
      const choices = q.choicesHtml.map(text);
      assert.equal(choices.length, 4);
      const ranks = choices.map((c) => words.indexOf(c));
      assert.ok(
        ranks.every((r) => r >= 0),
        'every choice is among its 20 most probable',
      );
      assert.equal(Math.min(...ranks), ranks[q.answer]);
      const first = next.find((w) => w.word !== null && /\p{L}/u.test(w.word));
      assert.equal(choices[q.answer], first.word);
      for (const [i, r] of ranks.entries()) if (i !== q.answer) assert.ok(r >= 3);
    });
  });

  test("attended-word: the answer is the English word the model's row weighs most", () => {
    const asked = new Set();
    eachDraw('attended-word', 16, (q) => {
      const [, english, german, t, word] = text(q.promptHtml).match(
        /translates “([^”]+)” as “([^”]+)”\. Writing German word (\d+), “([^”]+)”/,
      );
      const run = translator.translate(english);
      assert.equal(run.target.join(' '), german);
      const row = Number(t) - 1;
      assert.equal(run.target[row], word);
      assert.notEqual(word, '<unk>');
      const n = run.source.length;
      const weights = Array.from(run.weights.subarray(row * n, (row + 1) * n));
      const top = weights.indexOf(Math.max(...weights));
      const choices = q.choicesHtml.map(text);
      assert.equal(choices.length, 4);
      assert.equal(new Set(choices).size, 4);
      assert.equal(choices[q.answer], run.source[top]);
      for (const choice of choices) assert.ok(run.source.includes(choice), choice);
      const rows = tableRows(q.explanationHtml).slice(1);
      rows.forEach((cells, j) => {
        assert.equal(cells[0], `${j + 1}. ${run.source[j]}`);
        assert.ok(Math.abs(number(cells[1]) - weights[j]) <= 0.005, `weight ${j}`);
      });
      asked.add(english);
    });
    assert.ok(asked.size > 3, 'the draws ask about several sentences');
  });

  test('alignment-shape: the answer is target rows by source columns, rows adding to 1', () => {
    eachDraw('alignment-shape', 12, (q) => {
      const [, n, english, m, german] = text(q.promptHtml).match(
        /translates the (\d+) English tokens “([^”]+)” into the (\d+) German words “([^”]+)”/,
      );
      const run = translator.translate(english);
      assert.equal(run.source.length, Number(n));
      assert.equal(run.target.length, Number(m));
      assert.equal(run.target.join(' '), german);
      assert.notEqual(Number(m), Number(n));
      assert.equal(
        text(q.choicesHtml[q.answer]),
        `${m} rows (German) × ${n} columns (English); each row adds up to 1`,
      );
      let first = 0;
      for (let j = 0; j < run.source.length; j++) first += run.weights[j];
      assert.match(text(q.explanationHtml), new RegExp(`first row adds up to ${first.toFixed(3)}`));
    });
  });

  test('largest-weight: the answer is the softmax arg-max and its weight', () => {
    eachDraw('largest-weight', 40, (q) => {
      const [positions, scoreCells] = tableRows(q.promptHtml);
      const scores = scoreCells.slice(1).map(number);
      assert.deepEqual(
        positions.slice(1).map(Number),
        scores.map((_, j) => j + 1),
      );
      assert.ok(scores.length === 4 || scores.length === 5);
      // Softmax in float64, here.
      const top = Math.max(...scores);
      const exps = scores.map((e) => Math.exp(e - top));
      const sum = exps.reduce((a, b) => a + b, 0);
      const weights = exps.map((e) => e / sum);
      const best = weights.indexOf(Math.max(...weights));
      assert.equal(
        text(q.choicesHtml[q.answer]),
        `Position ${best + 1}, about ${weights[best].toFixed(2)}`,
      );
      q.choicesHtml.forEach((choice, i) => {
        if (i === q.answer) return;
        const [, position, size] = text(choice).match(/^Position (\d+), about ([\d.]+)$/);
        const wrongPlace = Number(position) !== best + 1;
        const wrongSize = Math.abs(Number(size) - weights[best]) >= 0.1;
        assert.ok(wrongPlace || wrongSize, `"${text(choice)}" is wrong`);
      });
      // The explanation shows the engine's weights, which agree with these.
      const shown = tableRows(q.explanationHtml)
        .slice(1)
        .map((row) => number(row[2]));
      shown.forEach((w, j) => assert.ok(Math.abs(w - weights[j]) <= 0.0006, `weight ${j}`));
    });
  });

  test('unscaled-variance: the answer is about d_k, as a variance computed here confirms', () => {
    const seen = new Set();
    eachDraw('unscaled-variance', 12, (q) => {
      const dk = Number(
        text(q.promptHtml)
          .match(/dk = ([\d,]+) entries/)[1]
          .replace(/,/g, ''),
      );
      seen.add(dk);
      assert.ok([16, 64, 256, 512].includes(dk));
      // Var(q·k) for independent unit normals is d_k: each product has variance 1.
      assert.equal(text(q.choicesHtml[q.answer]), `About dk = ${dk.toLocaleString('en-US')}`);
      const measured = number(q.explanationHtml.match(/variance <strong>([\d,.]+)<\/strong>/)[1]);
      assert.ok(Math.abs(measured - dk) < 0.2 * dk, `measured ${measured} for d_k = ${dk}`);
      assert.match(q.explanationHtml, /scores had variance (0\.[89]\d|1\.[01]\d)\./);
    });
    assert.ok(seen.size > 1, 'd_k varies between draws');
  });

  test('unscaled-variance: a Monte Carlo estimate in plain JS picks the same option', () => {
    const random = seeded(5);
    const normal = () => {
      const u = 1 - random();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    };
    for (const dk of [16, 256]) {
      const values = Array.from({ length: 2000 }, () => {
        let dot = 0;
        for (let i = 0; i < dk; i += 1) dot += normal() * normal();
        return dot;
      });
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
      const options = [1, Math.sqrt(dk), dk, dk * dk];
      const near = options.map((o) => Math.abs(Math.log(o / variance)));
      assert.equal(near.indexOf(Math.min(...near)), 2, `variance ${variance} is nearest d_k`);
    }
  });

  test('causal-zeros: the answer is n(n-1)/2, the zeros above the diagonal', () => {
    eachDraw('causal-zeros', 30, (q) => {
      const sentence = text(q.promptHtml).match(/The sentence \u201c(.*?)\u201d/)[1];
      assert.ok(SENTENCES.includes(sentence));
      const n = sentence.split(' ').length;
      assert.equal(number(text(q.choicesHtml[q.answer])), (n * (n - 1)) / 2);
      // The engine's weights as the explanation shows them: zeros exactly above the diagonal.
      const [, ...rows] = tableRows(q.explanationHtml);
      assert.equal(rows.length, n);
      rows.forEach((row, i) => {
        row.slice(1).forEach((cell, j) => {
          if (j > i) assert.equal(cell, '0', `weight (${i}, ${j}) is masked`);
          else assert.match(cell, /^[01]\.\d\d$/, `weight (${i}, ${j}) is shown`);
        });
        const sum = row.slice(1).reduce((a, cell) => a + Number(cell), 0);
        assert.ok(Math.abs(sum - 1) < 0.03 + 0.005 * n, `row ${i} sums to about 1`);
      });
    });
  });

  test('causal-zeros: counting zeros in a plain-JS causal softmax gives the same answer', () => {
    const q = generators['causal-zeros'](engine, seeded(11));
    const n = text(q.promptHtml)
      .match(/The sentence \u201c(.*?)\u201d/)[1]
      .split(' ').length;
    const seed = Number(q.explanationHtml.match(/seed (\d+)/)[1]);
    const width = Number(q.explanationHtml.match(/width (\d+)/)[1]);
    const x = engine.unitNormal(n, width, seed);
    let zeros = 0;
    for (let i = 0; i < n; i += 1) {
      const scores = Array.from({ length: n }, (_, j) => {
        if (j > i) return -Infinity;
        let dot = 0;
        for (let c = 0; c < width; c += 1) dot += x[i * width + c] * x[j * width + c];
        return dot / Math.sqrt(width);
      });
      const top = Math.max(...scores);
      const exps = scores.map((s) => (s === -Infinity ? 0 : Math.exp(s - top)));
      zeros += exps.filter((e) => e === 0).length;
    }
    assert.equal(number(text(q.choicesHtml[q.answer])), zeros);
  });

  for (const name of Object.keys(generators)) {
    test(`${name}: the same seed gives the same question, a new attempt new numbers`, () => {
      const a = generators[name](engine, seeded(99));
      const b = generators[name](engine, seeded(99));
      assert.deepEqual(a, b);

      const session = createSession([{ id: name, slide: 's', generator: name }], {
        engine,
        random: seeded(3),
      });
      let previous = session.current();
      for (let i = 0; i < 4; i += 1) {
        session.restart();
        const next = session.current();
        assert.notEqual(
          next.promptHtml + next.choicesHtml,
          previous.promptHtml + previous.choicesHtml,
        );
        const result = session.answer(0);
        assert.notEqual(result.explanationHtml, '');
        previous = next;
      }
    });
  }
});
