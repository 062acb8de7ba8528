// End-to-end tests of the Figure menu: saving a slide's figure gives a standalone SVG holding its
// drawings with every colour written out (no CSS variables left), and a PNG twice its size;
// "Copy link" hands over the address that reproduces the figure; the article offers the same
// saves under its figures; keys in the menu never move the slides.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { currentSlide, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const site = useSite();

/**
 * Clicks a menu item and returns the file it saves.
 * @param {import('playwright-core').Page} page
 * @param {string} scope
 * @param {string} item
 */
async function save(page, scope, item) {
  const menu = page.locator(`${scope} .figure-tools`);
  if (!(await menu.evaluate((details) => details.open))) await menu.locator('summary').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    menu.getByRole('button', { name: item }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** @param {Buffer} png */
function pngSize(png) {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('saving and sharing a figure', () => {
  test('the multi-head slide saves as SVG and PNG, with its own colours and pictures', async () => {
    // The figure's Untrained view, the multi-head widget: its name is in the file's.
    await site.visit('index.html?figure=multi-head&show=multi-head#/multi-head', async (page) => {
      await waitForSlide(page, 'multi-head');
      await page.locator('#multi-head .mh-out svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      const drawn = await page.locator('#multi-head svg.heatmap-svg [role="gridcell"]').count();
      const svg = await save(page, '#multi-head', 'Save as SVG');
      assert.equal(svg.name, 'attention-multi-head-multi-head.svg');
      const text = svg.bytes.toString('utf8');
      assert.match(text, /^<\?xml/);
      assert.match(text, /Several Views at Once/);
      assert.equal((text.match(/<svg /g) ?? []).length, 1 + 5, 'four heads and the output');
      assert.equal((text.match(/role="gridcell"/g) ?? []).length, drawn);
      const leftover = /.{60}(?:var\(|color-mix|oklab| class=| style=).{60}/.exec(text);
      assert.equal(leftover, null, `page CSS left in the file: ${leftover?.[0]}`);
      assert.ok(text.length < 400_000, `the file holds ${text.length} characters`);
      assert.match(text, /fill="#[0-9a-f]{6}"/);
      // The output (11 tokens by 100 features) is too large for an element per cell: its picture,
      // one pixel per value, goes into the file as a PNG, its pixels kept square.
      const pictures = [...text.matchAll(/<image [^>]*>/g)].map(([tag]) => tag);
      assert.equal(pictures.length, 1, 'the output is a picture');
      assert.match(pictures[0], /href="data:image\/png;base64,/);
      assert.match(pictures[0], /image-rendering="pixelated"/);
      assert.match(pictures[0], /preserveAspectRatio="none"/);
      const png = Buffer.from(
        /href="data:image\/png;base64,([^"]+)"/.exec(pictures[0])?.[1] ?? '',
        'base64',
      );
      assert.deepEqual(pngSize(png), { width: 100, height: 11 }, 'one pixel per output value');
      const width = Number(/<svg [^>]*?width="(\d+)"/.exec(text)?.[1]);
      const saved = await save(page, '#multi-head', 'Save as PNG');
      assert.equal(saved.name, 'attention-multi-head-multi-head.png');
      assert.equal(pngSize(saved.bytes).width, 2 * width);
      assert.equal(await currentSlide(page), 'multi-head', 'keys in the menu kept the slide');
    });
  });

  test('Copy link hands over the address that reproduces the figure', async () => {
    await site.visit('index.html?figure=title&show=heatmap#/title', async (page) => {
      await waitForSlide(page, 'title');
      await page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      await page.locator('#title .hm-sentence').fill('Share this figure');
      await page.waitForFunction(() => location.search.includes('Share+this+figure'));
      await page.locator('#title .figure-tools summary').focus();
      await page.keyboard.press('Enter');
      await page.locator('#title .figure-tools').getByRole('button', { name: 'Copy link' }).click();
      const status = page.locator('#title .figure-tools-status');
      await status.filter({ hasText: /\S/ }).waitFor({ timeout: TIMEOUT });
      const said = await status.textContent();
      const copied = said?.startsWith('Link copied')
        ? await page.evaluate(() => navigator.clipboard.readText()).catch(() => page.url())
        : said?.replace('Copy this link: ', '');
      assert.equal(copied, page.url());
      const settings = new URL(copied ?? '').searchParams;
      assert.equal(settings.get('figure'), 'title');
      assert.equal(settings.get('show'), 'heatmap');
      assert.equal(settings.get('sentence'), 'Share this figure');
      assert.equal(await currentSlide(page), 'title');
    });
  });

  test('the article saves its figures too, in the view shown', async () => {
    await site.visit('article.html#title', async (page) => {
      // The trained translator first, then the untrained heatmap.
      await page.locator('#title .mt[data-state="drawn"]').waitFor({ timeout: TIMEOUT });
      const german = await page.locator('#title .mt-words').textContent();
      const trained = await save(page, '#title', 'Save as SVG');
      assert.equal(trained.name, 'attention-title.svg');
      const text = trained.bytes.toString('utf8');
      assert.match(text, /role="gridcell"/);
      for (const word of (german ?? '').split(' ').filter((w) => /\p{L}/u.test(w))) {
        assert.ok(text.includes(`>${word}<`), `the saved matrix labels a row \u201c${word}\u201d`);
      }
      await page.locator('#title .figure-views input[value="heatmap"]').check();
      const figure = page.locator('#title .hm-figure svg.heatmap-svg');
      await figure.waitFor({ timeout: TIMEOUT });
      const svg = await save(page, '#title', 'Save as SVG');
      assert.equal(svg.name, 'attention-title-heatmap.svg');
      assert.match(svg.bytes.toString('utf8'), /role="gridcell"/);
    });
  });
});
