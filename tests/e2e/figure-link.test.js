// End-to-end tests of links to a figure: a link with settings opens the slide's figure with them;
// changing the figure rewrites the address, so reloading it (or sending it) shows the same
// figure, whether the change came from the mouse or the keyboard alone; moving to another slide
// drops settings that belong to the one left; junk in a link gives the figure's defaults, never
// an error. The figure here is the title slide's heatmap, its
// Untrained view, which the link names (show=heatmap).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const site = useSite();

/** @param {import('playwright-core').Page} page */
function query(page) {
  return page.evaluate(() => Object.fromEntries(new URL(location.href).searchParams));
}

describe('links to a figure', () => {
  test('a link sets the figure; changing the figure rewrites the link', async () => {
    const link =
      'index.html?figure=title&show=heatmap&sentence=The+dog+chased+the+ball&view=lines&from=1#/title';
    await site.visit(link, async (page) => {
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-lines svg').waitFor({ timeout: TIMEOUT });
      assert.equal(
        await page.locator('#title .hm-sentence').inputValue(),
        'The dog chased the ball',
      );
      assert.equal(await page.locator('#title .token-lines-query.active').textContent(), 'dog');
      await page.locator('#title').getByRole('checkbox', { name: 'Causal mask' }).check();
      await page.waitForFunction(
        () => new URL(location.href).searchParams.get('causal') === 'true',
      );
      assert.deepEqual(await query(page), {
        figure: 'title',
        show: 'heatmap',
        sentence: 'The dog chased the ball',
        causal: 'true',
        view: 'lines',
        from: '1',
      });
      const copied = page.url();
      await page.goto('about:blank');
      await page.goto(copied);
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-lines svg').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator('#title .hm-causal').isChecked(), true);
      assert.equal(await page.locator('#title .token-line').count(), 2, 'dog sees the and dog');
    });
  });

  test('a change made with the keyboard alone reaches the link', async () => {
    await site.visit('index.html?figure=title&show=heatmap#/title', async (page) => {
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      await page.locator('#title .hm-sentence').focus();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Birds sing');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await page.waitForFunction(
        () => {
          const params = new URL(location.href).searchParams;
          return params.get('sentence') === 'Birds sing' && params.get('causal') === 'true';
        },
        null,
        { timeout: TIMEOUT },
      );
      assert.equal(await page.locator('#title .hm-causal').isChecked(), true);
    });
  });

  test('moving to another slide leaves the settings of the one left behind', async () => {
    const link = 'index.html?figure=title&show=heatmap&sentence=Hello+world#/title';
    await site.visit(link, async (page) => {
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      await page.keyboard.press('ArrowRight');
      await waitForSlide(page, 'bottleneck');
      // The address now describes the bottleneck slide's figure, if anything: never the title's.
      await page.waitForFunction(
        () => new URL(location.href).searchParams.get('figure') !== 'title',
      );
      const url = new URL(page.url());
      assert.equal(url.hash, '#/bottleneck');
      assert.notEqual(url.searchParams.get('sentence'), 'Hello world', 'not the title\u2019s');
      assert.ok(['bottleneck', null].includes(url.searchParams.get('figure')));
    });
  });

  test('junk in a link gives the defaults and no error', async () => {
    const link =
      'index.html?figure=title&show=heatmap&causal=%5B1%2C&view=%3Cb%3E&from=-9&sentence=#/title';
    await site.visit(link, async (page) => {
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-status').waitFor({ timeout: TIMEOUT });
      await page.locator('#title .hm-sentence').fill('It works');
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator('#title .hm-figure [role="gridcell"]').count(), 4);
    });
  });
});
