// The address is input: every byte of it may be written by someone who wants the page to fail.
// Figure links carry every setting a widget declares (web/src/widgets/<name>/link-settings.js) set
// to values nobody would type (tests/js/hostile-values.js), with every option name of reveal.js
// beside them, and the page must show no console or page error, run no script of theirs, draw
// each figure and still move its slides with the arrow keys. The cases come from the widgets'
// declarations: a new setting, or a new widget on a slide, is covered without editing this file;
// a widget that declares nothing fails here.
//
// Each lesson's deck: each round loads it afresh with a hostile query and walks every slide with the arrow
// keys; before each slide is first shown, the test puts that slide's figure link (hostile values)
// into the address, which is where the deck reads a figure's settings when a slide is first shown.
// Round k gives setting i of the walk hostile value k + i; three rounds a third of the list apart
// give each setting three kinds of value here (tests/js/link-settings.test.js gives every setting
// every value). A second, short walk per round shows the views the first leaves out. The embed
// page, the print view, the article and the single-file lesson get hostile addresses of their own.
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { HOSTILE_MARK, HOSTILE_VALUES, revealParams } from '../js/hostile-values.js';
import { assertClean, currentSlide, openPage, useSite, waitForSlide } from './browser.js';
import { LESSONS } from './lessons-walk.js';
import { offlineFile } from './site-dir.js';

register('../js/page-modules.js', import.meta.url);
const { settingsOf } = await import('../../web/src/widgets/shared/registry.js');
await import('../../web/src/widgets/index.js');

const TIMEOUT = 20_000;
const site = useSite();
/** The values, but the empty one (a link may leave a setting empty: that is no attack). */
const VALUES = HOSTILE_VALUES.filter((value) => value.text !== '');
const REVEAL = revealParams();
const DECK_ROUNDS = [0, 1, 2].map((k) => Math.round((k * VALUES.length) / 3));

/**
 * @typedef {{ slide: string, type: string, first: boolean }} Figure
 * @typedef {{ key: string, linkKey: string | null, slides: [string, string[]][] }} Walked
 *   a lesson: its key, the key its addresses carry (none for the first) and its slides' views
 */

/**
 * Every lesson's slides' views, in deck order: [slide id, [view types]] (slides without a
 * figure: []).
 */
const NAMED = LESSONS.map((lesson) =>
  lesson.slides.map((slide) => [
    slide.id,
    slide.widget ? [slide.widget.type, ...(slide.widget.also ?? []).map((view) => view.type)] : [],
  ]),
);
const types = [...new Set(NAMED.flat().flatMap(([, views]) => views))];
/** Every lesson, each slide's views only those whose widget declares its settings. */
const WALKED = /** @type {Walked[]} */ (
  LESSONS.map((lesson, index) => ({
    key: lesson.lesson.key,
    linkKey: lesson.linkKey,
    slides: NAMED[index].map(([id, views]) => [id, views.filter((type) => settingsOf(type))]),
  }))
);
const [FIRST] = WALKED;

/**
 * Two walks through a lesson that between them show every widget a slide names that declares its
 * settings (the first test fails on any that does not): the first shows on each slide the
 * first view whose widget no earlier slide showed (else its first view), the second the widgets
 * the first leaves out, each once.
 * @param {[string, string[]][]} slides the lesson's (Walked)
 * @returns {Figure[][]}
 */
function walks(slides) {
  const seen = new Set();
  const main = slides.map(([slide, views]) => {
    const type = views.find((view) => !seen.has(view)) ?? views[0];
    if (type) seen.add(type);
    return { slide, type, first: type === views[0] };
  });
  const rest = [];
  for (const [slide, views] of slides) {
    const type = views.find((view) => !seen.has(view));
    if (!type) continue;
    seen.add(type);
    rest.push({ slide, type, first: type === views[0] });
  }
  return [main.filter((figure) => figure.type), rest];
}

/**
 * The query of a figure link whose every declared setting holds a hostile value: setting i gets
 * value `offset + i`. The lesson's key comes first, as its own links carry it.
 * @param {Figure} figure
 * @param {number} offset
 * @param {string | null} [linkKey] the lesson's key (none for the first lesson)
 * @returns {URLSearchParams}
 */
function hostileQuery(figure, offset, linkKey = null) {
  const declaration = settingsOf(figure.type) ?? {};
  const params = new URLSearchParams(linkKey ? { lesson: linkKey } : {});
  params.set('figure', figure.slide);
  if (!figure.first) params.set('show', figure.type);
  Object.keys(declaration).forEach((name, i) => {
    params.set(name, VALUES[(offset + i) % VALUES.length].text);
  });
  return params;
}

/**
 * Every reveal.js option (and the notes plugin's `notes`) set to a hostile value; the long value
 * only to one of them, so that the request stays under the server's limit on its first line.
 * @param {URLSearchParams} params
 * @param {number} offset
 */
function addRevealOptions(params, offset) {
  const short = VALUES.filter((value) => value.text.length < 200);
  REVEAL.forEach((name, i) => {
    if (!params.has(name)) params.set(name, short[(offset + i) % short.length].text);
  });
  params.set('notes', VALUES[VALUES.length - 1].text);
  return params;
}

/**
 * Waits until the figure in `scope` is drawn: its widget mounted and showing something, no
 * loading note, and not the message of a figure that could not be drawn.
 * @param {import('playwright-core').Page} page
 * @param {string} scope
 * @param {string} what for the message
 */
async function assertDrawn(page, scope, what) {
  await page
    .waitForFunction(
      (selector) => {
        const host = document.querySelector(`${selector} .widget-host`);
        const area = host?.querySelector('.widget-area');
        return Boolean(area?.firstElementChild) && !host?.hasAttribute('aria-busy');
      },
      scope,
      { timeout: TIMEOUT },
    )
    .catch(() => assert.fail(`${what}: no figure drawn`));
  const broken = await page.locator(`${scope} .widget-host > .widget-message.error`).count();
  assert.equal(broken, 0, `${what}: the figure could not be drawn`);
}

/**
 * @param {import('playwright-core').Page} page
 * @param {string} what
 */
async function assertNoScriptRan(page, what) {
  const mark = await page.evaluate((name) => /** @type {any} */ (window)[name], HOSTILE_MARK);
  assert.equal(mark, undefined, `${what}: a hostile script ran`);
}

/**
 * Loads a lesson's deck on the walk's first slide with a hostile address, then shows each next
 * slide with the arrow key, its figure's hostile link put into the address first.
 * @param {Walked} lesson
 * @param {Figure[]} walk
 * @param {number} round
 * @param {string} hash the fragment to load with (a hostile one lands on the first slide)
 */
async function walkDeck(lesson, walk, round, hash) {
  const session = await openPage(site.browser());
  const { page } = session;
  try {
    const [start] = walk;
    const query = addRevealOptions(hostileQuery(start, round, lesson.linkKey), round);
    await page.goto(`${site.url()}index.html?${query}${hash}`);
    const ids = lesson.slides.map(([id]) => id);
    let at = ids.indexOf(start.slide);
    // A fragment that names a slide past the end lands on the last one: the deck is then taken
    // to the walk's first slide as a learner's link would take it.
    await page.waitForFunction(
      () => document.querySelector('.reveal .slides > section.present'),
      null,
      {
        timeout: TIMEOUT,
      },
    );
    const landed = await currentSlide(page);
    assert.ok(landed && ids.includes(landed), `round ${round}: the deck shows a slide`);
    if (landed !== start.slide) {
      await page.evaluate((id) => {
        location.hash = `#/${id}`;
      }, start.slide);
    }
    await waitForSlide(page, start.slide);
    const controls = await page.evaluate(
      () =>
        getComputedStyle(/** @type {Element} */ (document.querySelector('.reveal .controls')))
          .display,
    );
    assert.notEqual(controls, 'none', `round ${round}: the deck keeps its arrows`);
    let offset = round + Object.keys(settingsOf(start.type) ?? {}).length;
    for (const figure of walk) {
      const target = ids.indexOf(figure.slide);
      while (at < target) {
        if (at + 1 === target) {
          const next = hostileQuery(figure, offset, lesson.linkKey);
          offset += Object.keys(settingsOf(figure.type) ?? {}).length;
          await page.evaluate((search) => {
            history.replaceState(history.state, '', `?${search}${location.hash}`);
          }, next.toString());
        }
        await page.locator('body').press('ArrowRight');
        at += 1;
        await waitForSlide(page, ids[at]);
      }
      await assertDrawn(
        page,
        `#${figure.slide}`,
        `round ${round}, ${figure.slide}: ${figure.type}`,
      );
    }
    await assertNoScriptRan(page, `round ${round}`);
    assertClean(session.log, site.origin());
  } finally {
    await session.close();
  }
}

/** Fragments that name no slide, or name it oddly. */
const HASHES = [
  '#/title',
  '#/%E0%A4%A',
  `#/<img src=x onerror="window.${HOSTILE_MARK}=1">`,
  '#/999999/-1/NaN',
  '#/title/1e308',
  `#/${'x'.repeat(3000)}`,
];

describe('a hostile address', () => {
  test('declares: every widget a slide names says what a link may set', () => {
    assert.deepEqual(
      types.filter((type) => settingsOf(type) === undefined),
      [],
    );
  });

  for (const lesson of WALKED) {
    test(`the deck of ${lesson.key}: hostile settings and reveal options, the slides still move`, async () => {
      const [main, rest] = walks(lesson.slides);
      for (const round of DECK_ROUNDS) {
        await walkDeck(lesson, main, round, '');
        if (rest.length > 0) await walkDeck(lesson, rest, round, HASHES[round % HASHES.length]);
      }
    });
  }

  test('the embed page: every view of every figure of every lesson, every setting hostile', async () => {
    const session = await openPage(site.browser());
    const { page } = session;
    try {
      let round = 0;
      for (const lesson of WALKED) {
        for (const [slide, views] of lesson.slides) {
          for (const [index, type] of views.entries()) {
            if (type === 'knowledge-check') continue;
            const where = `embed ${lesson.key} ${slide}: ${type}`;
            const query = addRevealOptions(
              hostileQuery({ slide, type, first: index === 0 }, round, lesson.linkKey),
              round,
            );
            await page.goto(`${site.url()}embed.html?${query}`);
            await assertDrawn(page, '#embed', where);
            await assertNoScriptRan(page, where);
            round += 1;
          }
        }
      }
      for (const value of VALUES) {
        await page.goto(`${site.url()}embed.html?${new URLSearchParams({ figure: value.text })}`);
        await page.locator('.embed-choices').waitFor({ timeout: TIMEOUT });
        await assertNoScriptRan(page, `embed figure=${value.kind}`);
      }
      assertClean(session.log, site.origin());
    } finally {
      await session.close();
    }
  });

  test('the print view still prints, whatever else the address holds', async () => {
    const [main] = walks(FIRST.slides);
    const query = addRevealOptions(hostileQuery(main[0], 3), 5);
    await site.visit(`index.html?print-pdf&${query}#/title`, async (page) => {
      await page.locator('.reveal .pdf-page').first().waitFor({ timeout: TIMEOUT });
      await assertDrawn(page, '#title', 'print view, title');
      await assertNoScriptRan(page, 'print view');
    });
  });

  test('the article: a hostile fragment and origin slide', async () => {
    // One page, loaded afresh with each value.
    await site.visit('article.html', async (page) => {
      for (const [i, value] of VALUES.entries()) {
        const query = new URLSearchParams({ from: value.text });
        const hash = i % 2 === 0 ? '#%E0%A4%A' : `#${encodeURIComponent(value.text)}`;
        await page.goto(`${site.url()}article.html?${query}${hash}`);
        await page.locator('a.back-link').first().waitFor({ timeout: TIMEOUT });
        const back = await page.locator('a.back-link').first().getAttribute('href');
        assert.match(back ?? '', /index\.html#\/title$/, 'back to the title slide');
        await assertNoScriptRan(page, `article ${value.kind}`);
      }
    });
  });

  test('the single-file lesson: a hostile ?page= opens the deck, its figure drawn', async () => {
    const session = await openPage(site.browser());
    const { page } = session;
    try {
      const [main] = walks(FIRST.slides);
      for (const value of VALUES.slice(0, 4)) {
        const query = addRevealOptions(hostileQuery(main[0], 1), 2);
        query.set('page', value.text);
        await page.goto(`${pathToFileURL(offlineFile).href}?${query}#/title`);
        await waitForSlide(page, 'title');
        await assertDrawn(page, '#title', `single file, page=${value.kind}`);
        await assertNoScriptRan(page, `single file, page=${value.kind}`);
      }
      assertClean(session.log, 'null');
    } finally {
      await session.close();
    }
  });
});
