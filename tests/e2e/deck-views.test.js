// End-to-end tests of the deck's other views and ways out: the title and closing slides' links,
// the knowledge check, the speaker view and the print view. Slides that fit the screen:
// layout.test.js.
// A production build served on 127.0.0.1, driven in a headless browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const { slides } = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
const ids = slides.map((slide) => slide.id);
const withHeatmap = slides.filter((slide) => slide.widget?.type === 'heatmap').map((s) => s.id);
const withModel = slides
  .filter((slide) => slide.widget?.type === 'language-model')
  .map((s) => s.id);

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

  test('the closing slide links the next lesson’s deck, and links onwards', async () => {
    await visit('index.html#/summary', async (page) => {
      await waitForSlide(page, 'summary');
      const next = page.locator('#summary .up-next');
      assert.equal(
        (await next.innerText()).replace(/\s+/g, ' '),
        'Up next: Lesson 2: The Transformer Architecture',
      );
      assert.equal(await next.locator('a').count(), 1);
      assert.equal(await next.locator('a').getAttribute('href'), 'index.html?lesson=transformer');
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
      for (const id of withModel) {
        await page.locator(`#${id} .lm[data-state="drawn"]`).waitFor({ timeout: TIMEOUT });
      }
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      assert.equal(pdf.subarray(0, 4).toString(), '%PDF');
      const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
      assert.equal(pages.length, ids.length, 'one PDF page per slide');
    });
  });
});
