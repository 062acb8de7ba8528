// More than one lesson: loadLessons reads every folder of slides/ as a lesson, orders them by
// number, refuses two lessons of one number or one key (naming the file), and works out each
// lesson's `next`; the address's ?lesson= picks a lesson or falls back to the first; the links
// the pages build carry the key of any lesson but the first. Every case builds its lessons in a
// scratch folder from the valid fixture: slides/ holds the real lessons only.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadLessons } from '../../web/build/content.js';
import { indexSource } from '../../web/build/vite-plugin-lesson.js';
import { LESSON_PARAM, lessonAsked, withLesson } from '../../web/src/lesson-address.js';
import * as hosted from '../../web/src/links.js';
import * as offline from '../../web/src/offline/links.js';
import { RESERVED, urlWithSettings } from '../../web/src/share/figure-link.js';
import { assertContentError } from './content-errors.js';
import { ROOT } from './helpers.js';

const VALID = path.join(ROOT, 'tests/js/fixtures-content/valid');
const scratch = mkdtempSync(path.join(tmpdir(), 'attention-lab-lessons-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A fresh slides/ folder with one lesson a folder: each a copy of the valid fixture whose
 * lesson.yaml has the lines given (replacing the fixture's lines of those fields).
 * @param {Record<string, Record<string, string>>} lessons folder name -> field -> YAML value
 * @returns {string} the slides/ folder
 */
function slidesWith(lessons) {
  const dir = path.join(mkdtempSync(path.join(scratch, 'case-')), 'slides');
  mkdirSync(dir);
  for (const [folder, fields] of Object.entries(lessons)) {
    const target = path.join(dir, folder);
    cpSync(VALID, target, { recursive: true });
    const file = path.join(target, 'lesson.yaml');
    let yaml = readFileSync(file, 'utf8');
    for (const [field, value] of Object.entries(fields)) {
      const line = new RegExp(`^${field}:.*$`, 'm');
      yaml = line.test(yaml)
        ? yaml.replace(line, `${field}: ${value}`)
        : `${field}: ${value}\n${yaml}`;
    }
    writeFileSync(file, yaml);
  }
  return dir;
}

describe('loadLessons', () => {
  test('loads every lesson folder, in the order of their numbers, whatever their names', () => {
    const dir = slidesWith({
      'a-later': { key: 'later', lesson: '2', title: 'The Later Lesson' },
      'b-first': { key: 'first', lesson: '1' },
    });
    const lessons = loadLessons(dir);
    assert.deepEqual(
      lessons.map(({ lesson }) => [lesson.key, lesson.lesson, lesson.code]),
      [
        ['first', 1, 'M09 · L01'],
        ['later', 2, 'M09 · L02'],
      ],
    );
    assert.deepEqual(Object.keys(lessons[0]), ['lesson', 'slides', 'quiz']);
    assert.equal(lessons[1].slides[0].file, 'slides/a-later/01-intro.md');
  });

  test("a lesson's next is the lesson numbered one more once its folder is there", () => {
    const two = loadLessons(
      slidesWith({ one: { key: 'one' }, two: { key: 'two', lesson: '2', title: 'Two' } }),
    );
    assert.deepEqual(two[0].lesson.next, { title: 'Lesson 2: Two', available: true, key: 'two' });
    // Lesson 2's own announcement of lesson 3 stays an announcement.
    assert.deepEqual(two[1].lesson.next, { title: 'Lesson 2: Next', available: false, key: null });

    const alone = loadLessons(slidesWith({ one: { key: 'one' } }));
    assert.deepEqual(alone[0].lesson.next, {
      title: 'Lesson 2: Next',
      available: false,
      key: null,
    });
    const gap = loadLessons(slidesWith({ one: { key: 'one' }, three: { key: 'x', lesson: '3' } }));
    assert.equal(gap[0].lesson.next?.available, false);
  });

  test('the real slides/ holds lesson 1 first, its next announced until lesson 2 is there', () => {
    const lessons = loadLessons(path.join(ROOT, 'slides'));
    const [first] = lessons;
    assert.equal(first.lesson.key, 'attention');
    assert.equal(first.lesson.lesson, 1);
    const second = lessons.find(({ lesson }) => lesson.lesson === 2);
    assert.equal(first.lesson.next?.available, Boolean(second));
    assert.equal(first.lesson.next?.key, second ? second.lesson.key : null);
  });

  test('two lessons of one number are refused, naming the second file', () => {
    const dir = slidesWith({ a: { key: 'a' }, b: { key: 'b' } });
    assertContentError(
      () => loadLessons(dir),
      'slides/b/lesson.yaml',
      'lesson',
      /1 is already the number of slides\/a\/lesson\.yaml/,
    );
  });

  test('two lessons of one key are refused, naming the second file', () => {
    const dir = slidesWith({ a: { key: 'same' }, b: { key: 'same', lesson: '2' } });
    assertContentError(
      () => loadLessons(dir),
      'slides/b/lesson.yaml',
      'key',
      /"same" is already the key of slides\/a\/lesson\.yaml/,
    );
  });

  test('a lesson without a kebab-case key is refused', () => {
    assertContentError(
      () => loadLessons(slidesWith({ a: { key: 'Not_Kebab' } })),
      'slides/a/lesson.yaml',
      'key',
      /must be a kebab-case string/,
    );
    const dir = slidesWith({ a: { key: 'a' } });
    const file = path.join(dir, 'a', 'lesson.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^key:.*\n/m, ''));
    assertContentError(() => loadLessons(dir), 'slides/a/lesson.yaml', 'key', /is required/);
  });

  test('a lesson of another module or course is refused', () => {
    assertContentError(
      () =>
        loadLessons(slidesWith({ a: { key: 'a' }, b: { key: 'b', lesson: '2', module: '10' } })),
      'slides/b/lesson.yaml',
      'module',
      /must be 9, as in slides\/a\/lesson\.yaml/,
    );
    assertContentError(
      () =>
        loadLessons(
          slidesWith({ a: { key: 'a' }, b: { key: 'b', lesson: '2', course: 'ML 102' } }),
        ),
      'slides/b/lesson.yaml',
      'course',
      /must be "ML 101"/,
    );
  });

  test('next says no more than its title: whether it is there comes from the folders', () => {
    const dir = slidesWith({
      a: { key: 'a', next: "{ title: 'Lesson 2: Next', available: true }" },
    });
    assertContentError(
      () => loadLessons(dir),
      'slides/a/lesson.yaml',
      'next.available',
      /is not a known field \(title\)/,
    );
  });

  test('a file beside the lesson folders, or no folder at all, is refused', () => {
    const dir = slidesWith({ a: { key: 'a' } });
    writeFileSync(path.join(dir, 'lesson.yaml'), 'key: stray\n');
    assert.throws(() => loadLessons(dir), {
      name: 'ContentError',
      file: 'slides/lesson.yaml',
      message: /^slides\/lesson\.yaml: is not in a lesson's folder/,
    });
    const empty = path.join(mkdtempSync(path.join(scratch, 'case-')), 'slides');
    mkdirSync(empty);
    assert.throws(() => loadLessons(empty), {
      name: 'ContentError',
      message: /^slides\/: holds no lesson folder$/,
    });
  });

  test('a broken file in the second lesson names its folder', () => {
    const dir = slidesWith({ a: { key: 'a' }, b: { key: 'b', lesson: '2' } });
    writeFileSync(path.join(dir, 'b', '03-broken.md'), '---\ntitle: No id\n---\nBody.\n');
    assertContentError(() => loadLessons(dir), 'slides/b/03-broken.md', 'id', /is required/);
  });

  test('the index module lists every lesson and loads any but the first on demand', () => {
    const lessons = loadLessons(
      slidesWith({ a: { key: 'a' }, b: { key: 'b', lesson: '2', title: 'Two' } }),
    );
    const source = indexSource(lessons);
    assert.match(source, /"b": \(\) => import\("virtual:lesson\/b"\)/);
    assert.doesNotMatch(source, /virtual:lesson\/a/);
    const list = JSON.parse(/export const LESSONS = (.*);\n/.exec(source)?.[1] ?? '[]');
    assert.deepEqual(
      list.map((meta) => [meta.key, meta.title]),
      [
        ['a', 'A Small Lesson'],
        ['b', 'Two'],
      ],
    );
  });
});

describe('the address names the lesson', () => {
  const keys = ['attention', 'transformer'];

  test('?lesson=<key> picks that lesson; none picks the first', () => {
    assert.equal(LESSON_PARAM, 'lesson');
    assert.equal(lessonAsked('', keys), 'attention');
    assert.equal(lessonAsked('?figure=title&sentence=x', keys), 'attention');
    assert.equal(lessonAsked('?lesson=transformer', keys), 'transformer');
    assert.equal(lessonAsked('?figure=x&lesson=transformer', keys), 'transformer');
    assert.equal(lessonAsked('?lesson=attention', keys), 'attention');
  });

  test('a value that names no lesson falls back to the first', () => {
    for (const value of [
      '',
      'Transformer',
      'transformer ',
      'nope',
      '__proto__',
      'constructor',
      '<img src=x onerror=alert(1)>',
      '%E0%A4%A',
      '../attention',
      'x'.repeat(5000),
    ]) {
      const search = `?${new URLSearchParams({ lesson: value })}`;
      assert.equal(lessonAsked(search, keys), 'attention', value.slice(0, 40));
    }
    assert.equal(lessonAsked('?lesson=%E0%A4%A', keys), 'attention');
    assert.equal(lessonAsked('?lesson', keys), 'attention');
  });

  test('the links of the first lesson are as they always were; others carry the key', () => {
    assert.equal(withLesson('index.html', null), 'index.html');
    assert.equal(withLesson('index.html', 'transformer'), 'index.html?lesson=transformer');
    assert.equal(withLesson('?page=deck', 'transformer'), '?page=deck&lesson=transformer');

    const cases = [
      [hosted.slideHref('why-scale'), 'index.html#/why-scale'],
      [hosted.articleHref('why-scale'), 'article.html?from=why-scale#why-scale'],
      [hosted.lessonHref(hosted.PRACTICE_URL), 'practice.html'],
      [hosted.slideHref('layers', 'transformer'), 'index.html?lesson=transformer#/layers'],
      [
        hosted.articleHref('layers', 'transformer'),
        'article.html?lesson=transformer&from=layers#layers',
      ],
      [hosted.lessonHref(hosted.PRACTICE_URL, 'transformer'), 'practice.html?lesson=transformer'],
      [offline.slideHref('why-scale'), '?page=deck#/why-scale'],
      [offline.articleHref('why-scale'), '?page=article&from=why-scale#why-scale'],
      [offline.slideHref('layers', 'transformer'), '?page=deck&lesson=transformer#/layers'],
      [
        offline.articleHref('layers', 'transformer'),
        '?page=article&lesson=transformer&from=layers#layers',
      ],
    ];
    for (const [href, expected] of cases) assert.equal(href, expected);
    assert.equal(
      offline.offlineHref(hosted.slideHref('x', 'transformer')),
      offline.slideHref('x', 'transformer'),
    );
  });

  test('a figure link keeps the lesson, and no setting can be called lesson', () => {
    assert.ok(RESERVED.includes('lesson'));
    const url = 'https://example.org/index.html?lesson=transformer&figure=a&heads=2#/a';
    assert.equal(
      urlWithSettings(url, 'b', { sentence: 'The dog' }),
      'https://example.org/index.html?lesson=transformer&figure=b&sentence=The+dog#/a',
    );
    assert.equal(
      urlWithSettings('https://example.org/index.html#/a', 'a', { lesson: 'x', heads: 2 }),
      'https://example.org/index.html?figure=a&heads=2#/a',
    );
  });
});
