// The lesson content pipeline: every lesson of the real slides/ loads and passes every rule of
// docs/content.md (the rules across lessons: lessons.test.js), broken content fails with a message
// naming the file and the field, and Markdown, math, notes and article render as the pages expect,
// deeper parts as closed asides. Each real lesson's speaker notes can be said in the room, its
// article's main line reads at one pace, and every paper its slides and article cite is in the
// article's references.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { checkWidgets, loadLesson, loadLessons } from '../../web/build/content.js';
import { parseSlideFile, splitDeeper } from '../../web/build/slide-file.js';
import { assertContentError } from './content-errors.js';
import { ROOT } from './helpers.js';

const FIXTURES = path.join(ROOT, 'tests/js/fixtures-content');
const VALID = path.join(FIXTURES, 'valid');
const scratch = mkdtempSync(path.join(tmpdir(), 'attention-lab-content-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Copies the valid fixture into a fresh `slides/` folder, plus one broken file under a new name.
 * @param {string} broken file in fixtures-content/broken/
 * @param {string} as its name in the copy, e.g. '03-bad-widget.md' or 'quiz.yaml'
 * @returns {string} the new slides/ folder
 */
function lessonWith(broken, as) {
  const dir = path.join(mkdtempSync(path.join(scratch, 'case-')), 'slides');
  cpSync(VALID, dir, { recursive: true });
  cpSync(path.join(FIXTURES, 'broken', broken), path.join(dir, as));
  return dir;
}

for (const lesson of loadLessons(path.join(ROOT, 'slides'))) {
  describe(`the real lesson "${lesson.lesson.key}"`, () => {
    test('loads, passes every rule and has the shape the pages import', () => {
      assert.deepEqual(Object.keys(lesson), ['lesson', 'slides', 'quiz']);
      assert.match(lesson.lesson.code, /^M\d{2} · L\d{2}$/);
      assert.ok(lesson.slides.length > 0);
      for (const slide of lesson.slides) {
        assert.match(slide.file, /^slides\/[a-z0-9-]+\/\d{2}-[a-z0-9-]+\.md$/);
        assert.notEqual(slide.html, '', `${slide.file} has an empty body`);
      }
    });

    test('every quiz item teaches from a slide that exists, and check lists existing items', () => {
      const slideIds = new Set(lesson.slides.map((slide) => slide.id));
      const itemIds = new Set(lesson.quiz.items.map((item) => item.id));
      for (const item of lesson.quiz.items) assert.ok(slideIds.has(item.slide), item.id);
      assert.ok(lesson.quiz.check.length > 0);
      for (const id of lesson.quiz.check) assert.ok(itemIds.has(id), id);
    });

    test('every widget a slide names is registered', async () => {
      // The widget modules import `virtual:lesson` and CSS as Vite serves them; these hooks do the
      // same for Node.
      register('./page-modules.js', import.meta.url);
      const { widgetNames } = await import('../../web/src/widgets/index.js');
      checkWidgets(lesson, widgetNames());
    });

    test('every live quiz item names a generator that exists', async () => {
      const { generators } = await import('../../web/src/quiz/generators/index.js');
      const live = lesson.quiz.items.filter((item) => item.generator);
      if (lesson.lesson.key === 'attention')
        assert.ok(live.length >= 3, `${live.length} live items`);
      for (const item of live)
        assert.ok(item.generator in generators, `${item.id}: ${item.generator}`);
    });
  });
}

/** Notes are said aloud at about 130 words a minute: 180 words is under a minute and a half. */
const NOTES_MAX_WORDS = 180;
/**
 * The article's main line, read at one pace, is at most 3,500 words: about a quarter of an hour
 * at a reader's 250 words a minute. It is what a reader of article.html reads without opening a
 * deeper part: the body of every slide the article shows (the first slide and every slide without
 * `article: false`; the article repeats it above the figure) and the slide's article section
 * outside its deeper parts (docs/content.md, "Optional parts of the article"), counted as the
 * notes are. The references list that closes the article is looked up, not read through, and the
 * "Go deeper" summaries are controls, as the figures' buttons and captions are: neither counts.
 */
const ARTICLE_MAX_WORDS = 3500;
/** The heading that opens the article's references, in the last section of the article. */
const REFERENCES = /^#{2,6}\s+References\s*$/m;

/** The real lessons' folders in slides/, by name. */
const LESSON_FOLDERS = readdirSync(path.join(ROOT, 'slides')).filter(
  (name) => !name.startsWith('.'),
);

/**
 * What a real lesson's content must hold at the least, beside the rules: lesson 1's slides and
 * citations, and lesson 2's (a lesson not listed, at least one of each).
 */
const AT_LEAST = {
  attention: { slides: 12, citations: 10 },
  transformer: { slides: 12, citations: 7 },
};

/**
 * A real lesson's slide files' Markdown sections, as written.
 * @param {string} folder the lesson's folder in slides/
 * @returns {Array<{ name: string, body: string, notes: string, article: string }>}
 */
function slideSources(folder) {
  const dir = path.join(ROOT, 'slides', folder);
  return readdirSync(dir)
    .filter((name) => /^\d{2}-.+\.md$/.test(name))
    .sort()
    .map((name) => ({
      name,
      ...parseSlideFile(readFileSync(path.join(dir, name), 'utf8'), `slides/${folder}/${name}`),
    }));
}

/**
 * The words of an article section's main line: the Markdown outside its deeper parts.
 * @param {string} article the article section, deeper markers and all
 * @param {string} file
 */
function mainLineWords(article, file) {
  return splitDeeper(article, file)
    .filter((part) => part.title === null)
    .reduce((sum, part) => sum + wordCount(part.markdown), 0);
}

/**
 * Words as a speaker says them: runs between white space that hold a letter or a digit (a dash
 * or a lone symbol is no word; a formula written without spaces is one).
 * @param {string} markdown
 */
function wordCount(markdown) {
  return markdown.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

const SURNAME = String.raw`\p{Lu}[\p{L}'’-]*`;
const CITED = String.raw`${SURNAME}(?:\s+et\s+al\.?|(?:,\s+${SURNAME})*\s+and\s+${SURNAME})`;
const YEAR = String.raw`(?:\s+\((\d{4})\)|,?\s+(\d{4}))`;
const CITATION = new RegExp(String.raw`(?<!\p{L})(${CITED})${YEAR}`, 'gu');

/**
 * The author-year citations in a text: "Miller et al. (2016)", "(Vaswani et al., 2017)",
 * "Elhage et al. 2021", "Luong and Manning (2016)", "Bahdanau, Cho and Bengio (2015)".
 * @param {string} text
 * @returns {Array<{ text: string, names: string[], etAl: boolean, year: number }>} names: the
 *   first author's surname alone after "et al.", else every surname
 */
function citations(text) {
  return [...text.matchAll(CITATION)].map(([whole, cited, bracketed, bare]) => {
    const etAl = /\set\s+al\b/.test(cited);
    const names = etAl ? [cited.split(/\s/)[0]] : cited.split(/,\s+|\s+and\s+/);
    return { text: whole.replace(/\s+/g, ' '), names, etAl, year: Number(bracketed ?? bare) };
  });
}

/**
 * One entry of the references: `- Surname, I., Surname, I. and Surname, I. (YEAR). Title. ...`,
 * "and others" after the first authors of a long list.
 * @param {string} line
 * @returns {{ surnames: string[], others: boolean, year: number } | null}
 */
function parseReference(line) {
  const match = /^- (.+?) \((\d{4})\)\. \S.*\.( \[[^\]]+\]\(https:\/\/\S+\))?$/u.exec(line);
  if (!match) return null;
  const parts = match[1].split(/,\s+|\s+and\s+/);
  const initials = /^\p{Lu}\.(?:[\s-]*\p{Lu}\.)*$/u;
  return {
    surnames: parts.filter((part) => !initials.test(part) && part !== 'others'),
    others: parts.includes('others'),
    year: Number(match[2]),
  };
}

/**
 * @param {{ names: string[], etAl: boolean, year: number }} citation
 * @param {{ surnames: string[], others: boolean, year: number }} entry
 */
function citesEntry(citation, entry) {
  if (citation.year !== entry.year) return false;
  if (citation.etAl) {
    return citation.names[0] === entry.surnames[0] && (entry.others || entry.surnames.length > 2);
  }
  return !entry.others && citation.names.join('|') === entry.surnames.join('|');
}

for (const folder of LESSON_FOLDERS) {
  describe(`what the real slides of slides/${folder}/ say and cite`, () => {
    const sources = slideSources(folder);
    const least = AT_LEAST[folder] ?? { slides: 1, citations: 1 };
    const withReferences = sources.filter((slide) => REFERENCES.test(slide.article));
    const last = sources.filter((slide) => slide.article.trim() !== '').at(-1);

    test('every slide’s speaker notes are at most 180 words', () => {
      assert.ok(sources.length >= least.slides, 'every slide file is read');
      const long = sources
        .map((slide) => [slide.name, wordCount(slide.notes)])
        .filter(([, words]) => words > NOTES_MAX_WORDS);
      assert.deepEqual(long, [], `notes over ${NOTES_MAX_WORDS} words`);
    });

    test('the article’s main line is at most 3,500 words, its deeper parts aside', () => {
      const read = sources.filter((slide, index) => index === 0 || slide.meta.article !== false);
      const words = read.map((slide) => {
        const article = slide === last ? slide.article.split(REFERENCES)[0] : slide.article;
        return wordCount(slide.body) + mainLineWords(article, `slides/${folder}/${slide.name}`);
      });
      const total = words.reduce((sum, n) => sum + n, 0);
      const each = read.map((slide, i) => `${slide.name} ${words[i]}`).join(', ');
      assert.ok(total <= ARTICLE_MAX_WORDS, `the main line has ${total} words: ${each}`);
    });

    test('the article ends with its references, one entry per work, in order', () => {
      assert.deepEqual(
        withReferences.map((slide) => slide.name),
        [last?.name],
        'one references list, in the last slide with an article section',
      );
      const list = last.article.slice(last.article.search(REFERENCES));
      const items = list.split('\n').filter((line) => line.startsWith('- '));
      assert.ok(items.length > 0, 'the references list has no entries');
      const keys = items.map((line) => {
        const entry = parseReference(line);
        assert.ok(entry && entry.surnames.length > 0, `not an entry: ${line}`);
        return `${entry.surnames[0]} ${entry.year} ${entry.surnames.slice(1).join(' ')}`;
      });
      assert.deepEqual(
        keys,
        keys.toSorted((a, b) => a.localeCompare(b)),
        'in order of author',
      );
    });

    test('every author-year citation in the slides, notes and article has its reference', () => {
      const list = last.article.slice(last.article.search(REFERENCES));
      const entries = list
        .split('\n')
        .filter((line) => line.startsWith('- '))
        .map(parseReference)
        .filter((entry) => entry !== null);
      const cited = sources.flatMap((slide) => {
        const article = slide === last ? slide.article.split(REFERENCES)[0] : slide.article;
        return citations([slide.body, slide.notes, article].join('\n')).map((citation) => ({
          ...citation,
          file: slide.name,
        }));
      });
      assert.ok(cited.length >= least.citations, `${cited.length} citations found`);
      const missing = cited
        .filter((citation) => !entries.some((entry) => citesEntry(citation, entry)))
        .map((citation) => `${citation.file}: ${citation.text}`);
      assert.deepEqual(missing, [], 'cited but not in the references');
    });
  });
}

describe('how the content tests count and find citations', () => {
  test('the main line counts the text outside the deeper parts only', () => {
    const article = [
      'Two words.',
      '<!-- deeper: Not counted -->',
      'Four words not counted.',
      '<!-- /deeper -->',
      'Three more words.',
    ].join('\n\n');
    assert.equal(mainLineWords(article, 'slides/test.md'), 5);
  });

  test('the word count counts what is said', () => {
    assert.equal(wordCount('Draw $QK^\\top$ \u2014 then ask: "why 0.19?"\n\nPoint at row 2.'), 10);
  });

  test('the citation matcher finds author-year citations and nothing else', () => {
    const text =
      'As Bahdanau, Cho and Bengio (2015) show, and Luong and Manning (2016) too, keys ' +
      'came first (Miller et al., 2016); Vaswani et al. (2017) named them, and Elhage et al. ' +
      '2021 traced heads. Not these: In 2017 Vaswani and colleagues, dog and Man (bites), ' +
      'Queries, keys and values in 2017.';
    assert.deepEqual(
      citations(text).map(({ text: cited, names, etAl, year }) => [cited, names, etAl, year]),
      [
        ['Bahdanau, Cho and Bengio (2015)', ['Bahdanau', 'Cho', 'Bengio'], false, 2015],
        ['Luong and Manning (2016)', ['Luong', 'Manning'], false, 2016],
        ['Miller et al., 2016', ['Miller'], true, 2016],
        ['Vaswani et al. (2017)', ['Vaswani'], true, 2017],
        ['Elhage et al. 2021', ['Elhage'], true, 2021],
      ],
    );
  });
});

describe('a valid lesson', () => {
  const { lesson, slides, quiz } = loadLesson(VALID);
  const [intro, scores] = slides;

  test('becomes exactly the object of docs/content.md', () => {
    assert.deepEqual(lesson, {
      key: 'small',
      course: 'ML 101',
      module: 9,
      lesson: 1,
      title: 'A Small Lesson',
      subtitle: 'Two slides and a quiz, for the content tests.',
      next: { title: 'Lesson 2: Next', available: false, key: null },
      code: 'M09 · L01',
    });
    const slideKeys = 'id title kicker widget html notesHtml articleHtml inArticle file'.split(' ');
    for (const slide of slides) assert.deepEqual(Object.keys(slide), slideKeys);
    assert.deepEqual(
      slides.map(({ id, file }) => [id, file]),
      [
        ['intro', 'valid/01-intro.md'],
        ['scores', 'valid/02-scores.md'],
      ],
    );
    assert.deepEqual(scores.widget, {
      type: 'heatmap',
      model: {
        key: 'raw-vectors',
        name: 'raw word vectors',
        trained: false,
        what: 'word vectors compared as they are',
      },
      props: { sentence: 'The cat sat.', causal: true },
    });
    assert.equal(intro.widget, null);
    assert.equal(scores.kicker, null);
    assert.deepEqual([intro.inArticle, scores.inArticle], [true, false]);
    assert.deepEqual(quiz.check, ['why-divide', 'causal-zeros']);
    assert.deepEqual(quiz.ideas, [
      { idea: 'scaling', item: 'why-divide' },
      { idea: 'masks', item: 'causal-zeros' },
    ]);
    assert.deepEqual(Object.keys(quiz.items[0]), [
      'id',
      'slide',
      'promptHtml',
      'choicesHtml',
      'answer',
      'explanationHtml',
    ]);
    assert.deepEqual(quiz.items[1], {
      id: 'causal-zeros',
      slide: 'intro',
      generator: 'causal-zeros',
    });
  });

  test('renders math to KaTeX HTML with MathML, leaving _ and * inside it alone', () => {
    assert.match(intro.html, /<span class="katex"><span class="katex-mathml"><math /);
    assert.match(intro.html, /<span class="katex-html" aria-hidden="true">/);
    assert.ok(
      intro.html.includes('<annotation encoding="application/x-tex">x_1 * y_2 + z_3 * w_4'),
    );
    assert.match(intro.html, /<msub><mi>x<\/mi><mn>1<\/mn><\/msub>/);
    assert.match(intro.html, /<span class="katex-display">/);
    assert.equal((intro.html.match(/<em>/g) ?? []).length, 1, 'only _this_ is emphasis');
  });

  test('escapes raw HTML instead of rendering it', () => {
    assert.ok(intro.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(intro.html.includes('&lt;b&gt;bold&lt;/b&gt;'));
    assert.doesNotMatch(intro.html, /<script|<b>/);
  });

  test('splits body, notes and article at the two markers', () => {
    assert.match(intro.notesHtml, /^<p>Say this to the room\.<\/p>\s*$/);
    assert.match(intro.articleHtml, /^<p>Only the article shows this paragraph\.<\/p>\s*$/);
    for (const part of ['Say this', 'Only the article', '&lt;!--']) {
      assert.ok(!intro.html.includes(part), part);
    }
    assert.match(scores.html, /^<p>A slide with a figure/);
    assert.deepEqual([scores.notesHtml, scores.articleHtml], ['', '']);
  });

  test('renders quiz prompts and choices inline and explanations as blocks, with math', () => {
    const [item] = quiz.items;
    assert.match(item.promptHtml, /^Why divide the scores by <span class="katex">/);
    assert.equal(item.choicesHtml.length, 3);
    assert.equal(item.choicesHtml[0], 'To keep their variance near 1.');
    assert.match(item.choicesHtml[2], /class="katex"/);
    assert.equal(item.answer, 0);
    assert.match(item.explanationHtml, /^<p>The variance of <span class="katex">/);
  });
});

describe('deeper parts of an article section', () => {
  const article = [
    'The main line, with $x_1$.',
    '<!-- deeper: The part about $d_k$ and <b>tags</b> -->',
    'A deeper paragraph with $$\\sqrt{d_k}$$ in it.',
    '',
    '### A heading of its own',
    '<!-- /deeper -->',
    'The main line goes on.',
    '<!-- deeper:Second part -->',
    'More.',
    '<!-- /deeper -->',
  ].join('\n\n');

  test('split the article into its main line and its deeper parts, in order', () => {
    const parts = splitDeeper(article, 'slides/03-deeper.md');
    assert.deepEqual(
      parts.map(({ title, markdown }) => [title, markdown.trim()]),
      [
        [null, 'The main line, with $x_1$.'],
        [
          'The part about $d_k$ and <b>tags</b>',
          'A deeper paragraph with $$\\sqrt{d_k}$$ in it.\n\n\n\n### A heading of its own',
        ],
        [null, 'The main line goes on.'],
        ['Second part', 'More.'],
      ],
    );
    assert.deepEqual(splitDeeper('', 'slides/03-deeper.md'), []);
    assert.deepEqual(splitDeeper('Only a main line.\n', 'slides/03-deeper.md'), [
      { title: null, markdown: 'Only a main line.\n' },
    ]);
  });

  test('render as closed details, titled Go deeper, with math inside and in the title', () => {
    const dir = path.join(mkdtempSync(path.join(scratch, 'case-')), 'slides');
    cpSync(VALID, dir, { recursive: true });
    writeFileSync(
      path.join(dir, '03-deeper.md'),
      [
        '---',
        'id: deeper',
        'title: Deeper',
        '---',
        '',
        'Body.',
        '',
        '<!-- article -->',
        '',
        article,
      ].join('\n'),
    );
    const slide = loadLesson(dir).slides.find((s) => s.id === 'deeper');
    const html = slide?.articleHtml ?? '';
    const details = html.match(/<details[^>]*>[\s\S]*?<\/details>/g) ?? [];
    assert.equal(details.length, 2, html);
    for (const part of details) {
      assert.match(part, /^<details class="deeper"><summary>Go deeper: /);
      assert.doesNotMatch(part, /<details[^>]*\sopen/, 'a deeper part starts closed');
    }
    const [first, second] = details;
    assert.match(first, /<summary>Go deeper: The part about <span class="katex">/);
    assert.ok(first.includes('&lt;b&gt;tags&lt;/b&gt;</summary>'), 'raw HTML in a title is text');
    assert.match(
      first,
      /<div class="deeper-body">\n<p>A deeper paragraph with <span class="katex-display">/,
    );
    assert.match(first, /<h3>A heading of its own<\/h3>/);
    assert.match(second, /<summary>Go deeper: Second part<\/summary>/);
    assert.match(html, /^<p>The main line, with <span class="katex">/);
    const outside = html.replace(/<details[\s\S]*?<\/details>/g, '|');
    assert.match(
      outside,
      /^<p>The main line, with .*<\/p>\n\|\n<p>The main line goes on\.<\/p>\n\|\n$/s,
    );
    assert.ok(!html.includes('&lt;!--'), 'no marker reaches the page');
  });
});

describe('a figure with more than one view', () => {
  test('comes out with its label and its further views, props filled in', () => {
    const dir = path.join(mkdtempSync(path.join(scratch, 'case-')), 'slides');
    cpSync(VALID, dir, { recursive: true });
    writeFileSync(
      path.join(dir, '03-views.md'),
      [
        '---',
        'id: views',
        'title: Two Views',
        'widget:',
        '  type: heatmap',
        '  label: Weights',
        '  model: raw-vectors',
        "  props: { sentence: 'A b.' }",
        '  also:',
        '    - { type: training, label: Trained models, model: toy-model,',
        '        props: { experiment: alignment } }',
        '    - { type: why-scale, label: Scores, model: raw-vectors }',
        '---',
        '',
        'A figure with three views.',
      ].join('\n'),
    );
    const slide = loadLesson(dir).slides.find((s) => s.id === 'views');
    const raw = {
      key: 'raw-vectors',
      name: 'raw word vectors',
      trained: false,
      what: 'word vectors compared as they are',
    };
    const toy = {
      key: 'toy-model',
      name: 'the toy model',
      trained: true,
      what: 'a model trained for the tests',
    };
    assert.deepEqual(slide?.widget, {
      type: 'heatmap',
      label: 'Weights',
      model: raw,
      props: { sentence: 'A b.' },
      also: [
        {
          type: 'training',
          label: 'Trained models',
          model: toy,
          props: { experiment: 'alignment' },
        },
        { type: 'why-scale', label: 'Scores', model: raw, props: {} },
      ],
    });
  });

  test('the training experiments are a view of their slides, after the figures before them', () => {
    const { slides } = loadLesson(path.join(ROOT, 'slides', 'attention'));
    const experiments = Object.fromEntries(
      slides
        .filter((slide) => slide.widget?.also && slide.widget.type !== 'language-model')
        .map((slide) => [
          slide.id,
          [slide.widget, ...slide.widget.also]
            .filter((view) => view.type === 'training')
            .map((view) => view.props),
        ])
        .filter(([, views]) => views.length > 0),
    );
    assert.deepEqual(experiments, {
      bottleneck: [{ experiment: 'bottleneck' }],
      'why-scale': [{ experiment: 'scaling' }],
      'cross-attention': [{ experiment: 'alignment' }],
    });
  });

  test('four slides open on the trained translators, the title among them, other figures one click away', () => {
    const { slides } = loadLesson(path.join(ROOT, 'slides', 'attention'));
    const translating = Object.fromEntries(
      slides
        .filter((slide) => slide.widget?.type === 'translation')
        .map((slide) => [
          slide.id,
          [slide.widget.props.view, ...slide.widget.also.map((view) => view.type)],
        ]),
    );
    assert.deepEqual(translating, {
      title: ['alignment', 'heatmap'],
      bottleneck: ['compare', 'bottleneck', 'training'],
      'weighted-retrieval': ['steps', 'weighted-retrieval'],
      'cross-attention': ['alignment', 'cross-attention', 'training'],
    });
  });

  test('two slides show the trained language model first, their untrained figure second, and multi-head a small one trained live third', () => {
    const { slides } = loadLesson(path.join(ROOT, 'slides', 'attention'));
    const trained = Object.fromEntries(
      slides
        .filter((slide) => slide.widget?.type === 'language-model')
        .map((slide) => [
          slide.id,
          [slide.widget.label, ...slide.widget.also.map((view) => `${view.label}: ${view.type}`)],
        ]),
    );
    assert.deepEqual(trained, {
      'multi-head': ['Trained model', 'Untrained: multi-head', 'Train it live: training'],
      'self-attention': ['Trained model', 'Untrained: self-attention-pair'],
    });
  });
});

describe('broken content fails with a message naming the file and the field', () => {
  const cases = [
    ['missing-id.md', '03-missing-id.md', 'id', /is required/],
    ['duplicate-id.md', '03-intro.md', 'id', /"intro" is already the id of slides\/01-intro\.md/],
    ['bad-widget.md', '03-bad-widget.md', 'widget.type', /must be a string, got number 5/],
    ['unknown-field.md', '03-unknown-field.md', 'colour', /is not a known field/],
    ['bad-tex.md', '03-bad-tex.md', 'body', /has bad TeX in \$\\frac\{1\}\{\$: KaTeX parse error/],
    ['markers-out-of-order.md', '03-markers-out-of-order.md', 'article', /out of place/],
    ['quiz-answer-out-of-range.yaml', 'quiz.yaml', 'items[0].answer', /2 is not an index/],
    ['quiz-missing-slide.yaml', 'quiz.yaml', 'items[0].slide', /"no-such-slide" is not the id/],
    ['quiz-duplicate-item.yaml', 'quiz.yaml', 'items[1].id', /"twice" is used twice/],
    ['quiz-check-missing-item.yaml', 'quiz.yaml', 'check[1].item', /"missing" is not the id/],
    ['quiz-one-choice.yaml', 'quiz.yaml', 'items[0].choices', /must hold 2 to 6, got 1/],
    ['quiz-both-kinds.yaml', 'quiz.yaml', 'items[0].prompt', /cannot go with generator/],
    ['also-without-label.md', '03-also-without-label.md', 'widget.label', /is required when/],
    [
      'also-view-without-label.md',
      '03-also-view-without-label.md',
      'widget.also[0].label',
      /is required/,
    ],
    [
      'also-same-type.md',
      '03-also-same-type.md',
      'widget.also[0].type',
      /"heatmap" is already a view of this figure/,
    ],
    ['also-not-a-list.md', '03-also-not-a-list.md', 'widget.also', /must be a list, got a mapping/],
    ['also-empty.md', '03-also-empty.md', 'widget.also', /must list at least one view/],
    [
      'deeper-unclosed.md',
      '03-deeper-unclosed.md',
      'article',
      /has <!-- deeper: Never closed --> that is never closed; end the part with <!-- \/deeper -->/,
    ],
    [
      'deeper-nested.md',
      '03-deeper-nested.md',
      'article',
      /has <!-- deeper: Inner --> inside the deeper part "Outer".*do not nest/,
    ],
    [
      'deeper-untitled.md',
      '03-deeper-untitled.md',
      'article',
      /has <!-- deeper: --> without a title/,
    ],
    [
      'deeper-stray-close.md',
      '03-deeper-stray-close.md',
      'article',
      /has <!-- \/deeper --> with no deeper part open/,
    ],
    ['deeper-empty.md', '03-deeper-empty.md', 'article', /has an empty deeper part "Nothing here"/],
    [
      'deeper-in-body.md',
      '03-deeper-in-body.md',
      'body',
      /has <!-- deeper: On the slide --> outside the article section/,
    ],
    [
      'deeper-in-notes.md',
      '03-deeper-in-notes.md',
      'notes',
      /has <!-- deeper: In the notes --> outside the article section/,
    ],
    ['deeper-bad-tex.md', '03-deeper-bad-tex.md', 'article', /has bad TeX in \$\\frac\{1\}\{\$/],
  ];
  for (const [broken, as, field, problem] of cases) {
    test(`${broken}: slides/${as}, ${field}`, () => {
      const dir = lessonWith(broken, as);
      assertContentError(() => loadLesson(dir), `slides/${as}`, field, problem);
    });
  }

  test('a figure view that names an unregistered widget fails checkWidgets', () => {
    const lesson = loadLesson(lessonWith('also-unknown-widget.md', '03-also-unknown-widget.md'));
    assertContentError(
      () => checkWidgets(lesson, ['heatmap']),
      'slides/03-also-unknown-widget.md',
      'widget.also[0].type',
      /"no-such-widget" is not a registered widget \(known: heatmap\)/,
    );
  });

  test('a slide that names an unregistered widget fails checkWidgets', () => {
    const lesson = loadLesson(lessonWith('unknown-widget.md', '03-unknown-widget.md'));
    assertContentError(
      () => checkWidgets(lesson, ['heatmap']),
      'slides/03-unknown-widget.md',
      'widget.type',
      /"no-such-widget" is not a registered widget \(known: heatmap\)/,
    );
  });
});
