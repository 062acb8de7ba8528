// End-to-end tests of the article (the whole lesson as one page, from the same data as the deck)
// and of the list of lessons. A production build served on 127.0.0.1, driven in a headless browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { openTables, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const { slides } = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
const inArticle = slides.filter((slide, index) => index === 0 || slide.inArticle);

const { visit } = useSite();

/** Every heatmap and every view of the trained language model in the article is drawn. */
async function figuresReady(page) {
  const count = (type) => inArticle.filter((slide) => slide.widget?.type === type).length;
  await page.waitForFunction(
    ([heatmaps, models]) =>
      document.querySelectorAll('.article .hm-figure svg.heatmap-svg').length === heatmaps &&
      document.querySelectorAll('.article .lm[data-state="drawn"]').length === models,
    [count('heatmap'), count('language-model')],
    { timeout: TIMEOUT },
  );
}

describe('the article', () => {
  test('has a section for every slide in it, with heading, text, figure and prose', async () => {
    await visit('article.html', async (page) => {
      await figuresReady(page);
      const sections = await page.locator('.article > section').evaluateAll((nodes) =>
        nodes.map((node) => ({
          id: node.id,
          heading: node.querySelector('h1, h2')?.textContent,
          figure: node.querySelector('.widget-host')?.dataset.widget,
          math: node.querySelectorAll('.katex').length,
        })),
      );
      assert.deepEqual(
        sections.map((s) => s.id),
        inArticle.map((s) => s.id),
      );
      inArticle.forEach((slide, index) => {
        const section = sections[index];
        if (index > 0) assert.equal(section.heading, slide.title, `${slide.id} heading`);
        assert.equal(section.figure, slide.widget?.type, `${slide.id} figure`);
        if (slide.html.includes('class="katex')) assert.ok(section.math > 0, `${slide.id} math`);
      });
      assert.equal(await page.locator('h1').count(), 1);
      assert.equal(
        await page.locator('.toc a').count(),
        inArticle.length,
        'the contents list every section',
      );
    });
  });

  test('each figure keeps its own sentence', async () => {
    await visit('article.html', async (page) => {
      await figuresReady(page);
      // The title's heatmap is its figure's second view, Untrained.
      await page.locator('#title .figure-views input[value="heatmap"]').check();
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      const boxes = page.getByRole('textbox', { name: /Sentence/ });
      assert.ok((await boxes.count()) >= 2, 'the article has two live figures');
      const second = await boxes.nth(1).inputValue();
      await openTables(page, '.article .hm-figure details.heatmap-details');
      await boxes.nth(0).fill('Only the first one changes');
      await page.waitForFunction(
        () => document.querySelector('.article .hm-figure tbody th')?.textContent === 'only',
      );
      assert.equal(await boxes.nth(1).inputValue(), second);
    });
  });

  test('shows each deeper part closed, opens it from the keyboard and prints it open', async () => {
    const parts = inArticle.reduce(
      (sum, slide) => sum + (slide.articleHtml.match(/<details class="deeper">/g) ?? []).length,
      0,
    );
    assert.ok(parts > 0, 'the slides have deeper parts');
    await visit('article.html', async (page) => {
      const deeper = page.locator('.article-prose details.deeper');
      const open = page.locator('.article-prose details.deeper[open]');
      await deeper.first().waitFor({ timeout: TIMEOUT });
      assert.equal(await deeper.count(), parts);
      assert.equal(await open.count(), 0, 'every deeper part starts closed');
      assert.ok((await page.locator('.deeper-body .katex').count()) > 0, 'math inside');

      const first = deeper.first();
      const summary = first.locator('summary');
      const body = first.locator('.deeper-body');
      assert.match(await summary.innerText(), /^Go deeper: \S/);
      assert.equal(await body.isVisible(), false);
      await summary.focus();
      await page.keyboard.press('Enter');
      await body.waitFor({ state: 'visible' });
      await page.keyboard.press('Space');
      await body.waitFor({ state: 'hidden' });

      await page.emulateMedia({ media: 'print' });
      assert.equal(await body.isVisible(), true, 'the print stylesheet shows a closed part');
      await page.emulateMedia({ media: 'screen' });
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      assert.equal(await open.count(), parts, 'printing opens every part');
      await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
      assert.equal(await open.count(), 0, 'and closes them again');
    });
  });

  test('Read article on a slide opens its section; Back to the slides returns there', async () => {
    await visit('index.html#/why-scale', async (page) => {
      await waitForSlide(page, 'why-scale');
      await page
        .locator('#why-scale .slide-chrome')
        .getByRole('link', { name: 'Read article' })
        .click();
      await page.waitForURL(/article\.html\?from=why-scale#why-scale$/, { timeout: TIMEOUT });
      const section = page.locator('section#why-scale');
      await section.waitFor({ timeout: TIMEOUT });
      await page.waitForFunction(() => {
        const top = document.getElementById('why-scale')?.getBoundingClientRect().top ?? -1;
        return top >= 0 && top < window.innerHeight / 2;
      });
      await page
        .locator('.top-nav')
        .getByRole('link', { name: /Back to the slides/ })
        .click();
      await page.waitForURL(/index\.html#\/why-scale$/, { timeout: TIMEOUT });
      await waitForSlide(page, 'why-scale');
    });
  });

  test('without a slide to return to, Back to the slides leads to the title slide', async () => {
    await visit('article.html?from=no-such-slide', async (page) => {
      const back = page.getByRole('link', { name: /Back to the slides/ });
      assert.ok((await back.count()) >= 1);
      for (const href of await back.evaluateAll((links) => links.map((a) => a.href))) {
        assert.ok(href.endsWith('index.html#/title'), href);
      }
      const nav = page.getByRole('navigation', { name: 'Lesson' });
      assert.equal(await nav.getByRole('link', { name: 'Practice questions' }).count(), 1);
      assert.equal(await nav.getByRole('link', { name: 'All lessons' }).count(), 1);
    });
  });

  test('fits a 360 px phone in the dark scheme', async () => {
    await visit(
      'article.html',
      async (page) => {
        await figuresReady(page);
        const sideways = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.equal(sideways, 0);
      },
      { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    );
  });
});

describe('the list of lessons', () => {
  test('links both lessons\u2019 decks and articles, lesson 2 by its key', async () => {
    await visit('lessons.html', async (page) => {
      await page.getByRole('heading', { name: /Module 9: Attention and Transformers/ }).waitFor();
      const first = page.getByRole('link', { name: /Lesson 1\s*The Attention Mechanism/ });
      assert.equal(await first.getAttribute('href'), 'index.html');
      const second = page.getByRole('link', { name: /Lesson 2\s*The Transformer Architecture/ });
      assert.equal(await second.getAttribute('href'), 'index.html?lesson=transformer');
      const item = page.locator('.lesson-item', { hasText: 'Lesson 2' });
      assert.equal(
        await item.getByRole('link', { name: 'Read as an article' }).getAttribute('href'),
        'article.html?lesson=transformer',
      );
      assert.equal(await page.locator('[aria-disabled="true"]').count(), 0);
      assert.doesNotMatch(await page.locator('.lesson-list').innerText(), /Coming soon/);
    });
  });
});
