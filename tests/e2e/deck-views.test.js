// End-to-end tests of the deck's other views and ways out: the title and closing slides' links,
// the knowledge check, the speaker view, the print view, and slides that fit the screen.
// A production build served on 127.0.0.1, driven in a headless browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const { slides } = loadLesson(fileURLToPath(new URL('../../slides/', import.meta.url)));
const ids = slides.map((slide) => slide.id);
const withHeatmap = slides.filter((slide) => slide.widget?.type === 'heatmap').map((s) => s.id);

const site = useSite();
const { visit } = site;

/**
 * The links of a slide, as [text, href] pairs.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function linksOf(page, id) {
  return page
    .locator(`section#${id} a`)
    .evaluateAll((links) => links.map((a) => [a.textContent.trim(), a.getAttribute('href')]));
}

/**
 * How far a slide spills out of its frame: anything drawn below .slide-main, or scrolled inside
 * its boxes (a figure's column included), in pixels.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @returns {Promise<number>}
 */
function spillOf(page, id) {
  return page.evaluate((slideId) => {
    const section = document.getElementById(slideId);
    const boxes = section.querySelectorAll('.slide-main, .slide-text, .hm-output, .mh-output');
    const main = section.querySelector('.slide-main').getBoundingClientRect();
    const spill = [...boxes].map((box) => box.scrollHeight - box.clientHeight);
    // What a closed <details> holds is not drawn.
    const drawn = [...section.querySelectorAll('.slide-main *')].filter(
      (node) => !node.closest('details:not([open]) > :not(summary)'),
    );
    const below = drawn.map((node) => node.getBoundingClientRect().bottom - main.bottom);
    return Math.max(...spill, ...below);
  }, id);
}

describe('ways out of the deck', () => {
  test('the title slide links to all lessons', async () => {
    await visit('index.html#/title', async (page) => {
      await waitForSlide(page, 'title');
      assert.deepEqual(
        (await linksOf(page, 'title')).filter(([text]) => text === 'All lessons'),
        [['All lessons', 'lessons.html']],
      );
    });
  });

  test('the closing slide names the next lesson, not as a link, and links onwards', async () => {
    await visit('index.html#/summary', async (page) => {
      await waitForSlide(page, 'summary');
      const next = page.locator('#summary .up-next');
      assert.equal(
        (await next.innerText()).replace(/\s+/g, ' '),
        'Up next: Lesson 2: The Transformer Architecture — coming soon',
      );
      assert.equal(await next.locator('a').count(), 0);
      const links = await linksOf(page, 'summary');
      for (const expected of [
        ['All lessons', 'lessons.html'],
        ['Read article', 'article.html?from=summary#summary'],
        ['Practice questions', 'practice.html'],
      ]) {
        assert.ok(
          links.some(([text, href]) => text === expected[0] && href === expected[1]),
          `${expected[0]} links to ${expected[1]}`,
        );
      }
    });
  });

  test('the knowledge check slide holds the quiz and a link to more practice', async () => {
    await visit('index.html#/knowledge-check', async (page) => {
      await waitForSlide(page, 'knowledge-check');
      const host = page.locator('#knowledge-check .widget-host');
      await host.locator('input, button').first().waitFor({ timeout: TIMEOUT });
      const links = await linksOf(page, 'knowledge-check');
      assert.ok(links.some(([, href]) => href === 'practice.html'));
    });
  });
});

describe('other views', () => {
  test('S opens the speaker view with the slide and its notes', async () => {
    await visit('index.html#/bottleneck', async (page, session) => {
      await waitForSlide(page, 'bottleneck');
      const [popup] = await Promise.all([
        session.context.waitForEvent('page'),
        page.keyboard.press('s'),
      ]);
      const problems = [];
      popup.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
      popup.on('pageerror', (err) => problems.push(err.message));
      const notes = popup.locator('.speaker-controls-notes .value');
      await notes.getByText(/narrow box/).waitFor({ timeout: TIMEOUT });
      assert.deepEqual(problems, [], 'the speaker view runs');
      await popup.close();
    });
  });

  test('?print-pdf lays out one page per slide, figures drawn, and prints', async () => {
    await visit('index.html?print-pdf', async (page) => {
      await page
        .locator('.pdf-page')
        .nth(ids.length - 1)
        .waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator('.pdf-page').count(), ids.length);
      for (const id of withHeatmap) {
        await page.locator(`#${id} .hm-figure svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      }
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      assert.equal(pdf.subarray(0, 4).toString(), '%PDF');
      const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
      assert.equal(pages.length, ids.length, 'one PDF page per slide');
    });
  });

  test('on a 1280 x 720 screen every slide fits its frame, clear of the controls', async () => {
    await visit('index.html#/title', async (page) => {
      for (const id of ids) {
        await page.goto(`${site.url()}index.html#/${id}`);
        await waitForSlide(page, id);
        if (slides.find((slide) => slide.id === id)?.widget) {
          await page.locator(`#${id} .widget-area`).waitFor({ timeout: TIMEOUT });
        }
        const over = await spillOf(page, id);
        assert.ok(over <= 6, `${id} spills ${over}px out of its frame`);
      }
    });
  });

  test('on a 1280 x 720 screen the multi-head slide fits with its largest head count too', async () => {
    await visit('index.html#/multi-head', async (page) => {
      await waitForSlide(page, 'multi-head');
      await page.locator('#multi-head .mh-out svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      const choices = page.locator('#multi-head .mh-choice');
      const largest = await choices.last().textContent();
      assert.equal(largest, '10', 'the divisors of 100 up to 16 end at 10');
      await choices.last().click();
      await page.waitForFunction(
        (h) => document.querySelectorAll('#multi-head .mh-tile svg').length === h,
        Number(largest),
      );
      const over = await spillOf(page, 'multi-head');
      assert.ok(over <= 6, `with ${largest} heads the slide spills ${over}px out of its frame`);
    });
  });

  test('on a phone each slide is a readable page without sideways scrolling', async () => {
    await visit(
      'index.html#/title',
      async (page) => {
        for (const id of ids) {
          await page.goto(`${site.url()}index.html#/${id}`);
          await waitForSlide(page, id);
          const looks = await page.evaluate((slideId) => {
            const section = document.getElementById(slideId);
            const text = section.querySelector('.slide-body');
            return {
              sideways: section.scrollWidth - section.clientWidth,
              font: parseFloat(getComputedStyle(text).fontSize),
            };
          }, id);
          assert.equal(looks.sideways, 0, `${id} scrolls sideways`);
          assert.ok(looks.font >= 16, `${id} text is ${looks.font}px`);
        }
      },
      { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    );
  });
});
