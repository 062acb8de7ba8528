// The deck as a screen reader meets it: no application role (which would take the reader out of
// its reading mode), one live region that says a new slide's number and title first and then its
// text, without the running header or the Figure menu, and focus that lands where reading goes
// on. Read from the browser's accessibility tree, and driven by the keyboard.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { currentSlide, figureDrawn, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const { lesson, slides } = loadLesson(
  fileURLToPath(new URL('../../slides/attention/', import.meta.url)),
);
const ids = slides.map((slide) => slide.id);

const site = useSite();

/**
 * The browser's whole accessibility tree, as the platform's screen readers get it.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{ role?: { value: string }, name?: { value: string },
 *   properties?: { name: string, value: { value: unknown } }[], ignored: boolean }[]>}
 */
async function accessibilityTree(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    return nodes;
  } finally {
    await cdp.detach();
  }
}

/**
 * The live regions that are not hidden from assistive technology, with their text.
 * @param {import('playwright-core').Page} page
 */
async function liveRegions(page) {
  const nodes = await accessibilityTree(page);
  return nodes
    .filter((node) => !node.ignored)
    .filter((node) => node.properties?.some((p) => p.name === 'live' && p.value.value !== 'off'))
    .filter((node) => node.properties?.some((p) => p.name === 'atomic' || p.name === 'live'))
    .map((node) => node.role?.value ?? '');
}

/**
 * What the deck's live region says now.
 * @param {import('playwright-core').Page} page
 */
function announcement(page) {
  return page.locator('.deck-status').textContent();
}

/**
 * The focused element, as a short description.
 * @param {import('playwright-core').Page} page
 */
function focused(page) {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'body';
    const slide = active.closest('section[id]');
    return `${slide ? `#${slide.id} ` : ''}${active.tagName.toLowerCase()}.${[...active.classList].join('.')}`;
  });
}

test('the deck is a document, not an application, with one live region', async () => {
  await site.visit('index.html#/title', async (page) => {
    await page.locator('.reveal.ready').waitFor({ timeout: TIMEOUT });
    // The tree is read once the figure has loaded and the fonts are in: a relayout while the
    // browser serialises its accessibility tree can crash the renderer.
    await figureDrawn(page, ids[0], TIMEOUT);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const nodes = await accessibilityTree(page);
    const applications = nodes.filter(
      (node) => !node.ignored && node.role?.value === 'application',
    );
    assert.deepEqual(applications, [], 'no node of the deck has the application role');
    assert.equal(await page.locator('.reveal').getAttribute('role'), null);
    // reveal's own region, which reads the header first, is silenced; the deck's own speaks.
    const revealRegion = page.locator('.reveal > .aria-status');
    assert.equal(await revealRegion.getAttribute('aria-hidden'), 'true');
    assert.equal(await revealRegion.isVisible(), false);
    assert.deepEqual(
      (await liveRegions(page)).filter((role) => role === 'status'),
      ['status'],
      "one status region: the deck's",
    );
    const headings = nodes.filter(
      (node) =>
        !node.ignored && node.role?.value === 'heading' && node.name?.value === slides[0].title,
    );
    assert.equal(headings.length, 1, 'the shown slide is read as a heading');
  });
});

test('a new slide is announced by number and title first, then its text, without its header', async () => {
  await site.visit('index.html#/title', async (page) => {
    await page.locator('.reveal.ready').waitFor({ timeout: TIMEOUT });
    await page.keyboard.press('ArrowRight');
    await waitForSlide(page, ids[1]);
    const said = (await announcement(page)) ?? '';
    assert.ok(
      said.startsWith(`Slide 2 of ${ids.length}: ${slides[1].title}. `),
      `the announcement begins with the number and title: "${said.slice(0, 80)}"`,
    );
    const bodyStart = (await page.locator(`#${ids[1]} .slide-body li`).first().innerText())
      .split(/\s+/)
      .slice(0, 3)
      .join(' ');
    assert.ok(said.includes(bodyStart), `then the slide's text ("${bodyStart}")`);
    for (const chrome of [
      `${lesson.course} · ${lesson.code}`,
      'Figure',
      'Save as SVG',
      'Read article',
    ]) {
      assert.ok(!said.includes(chrome), `the header's "${chrome}" is not read`);
    }
    // It says each slide as it comes, the last one too.
    await page.keyboard.press('End');
    await waitForSlide(page, ids[ids.length - 1]);
    assert.ok(
      (await announcement(page))?.startsWith(
        `Slide ${ids.length} of ${ids.length}: ${slides[ids.length - 1].title}.`,
      ),
    );
  });
});

test('focus goes to the new slide heading, and every deck key works from there', async () => {
  await site.visit('index.html#/title', async (page) => {
    await page.locator('.reveal.ready').waitFor({ timeout: TIMEOUT });
    const steps = [
      ['ArrowRight', 1],
      ['ArrowRight', 2],
      ['ArrowLeft', 1],
      ['Space', 2],
      ['PageDown', 3],
      ['PageUp', 2],
      ['n', 3],
      ['p', 2],
      ['End', ids.length - 1],
      ['Home', 0],
    ];
    for (const [key, index] of steps) {
      await page.keyboard.press(String(key));
      await waitForSlide(page, ids[Number(index)]);
      assert.equal(
        await focused(page),
        `#${ids[Number(index)]} ${Number(index) === 0 ? 'h1' : 'h2'}.slide-heading`,
        `after ${key}, focus is on the heading of ${ids[Number(index)]}`,
      );
    }
    // The overview (Escape) opens and closes from the heading too.
    await page.keyboard.press('Escape');
    await page.locator('.reveal.overview').waitFor({ timeout: TIMEOUT });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.reveal.overview'));
  });
});

test('a control that has focus keeps it: the sentence box while typing, the arrows while pressed', async () => {
  await site.visit('index.html#/title', async (page) => {
    await page.locator('#title .widget-area').waitFor({ timeout: TIMEOUT });
    const box = page.locator('#title textarea, #title input[type="text"]').first();
    await box.click();
    await page.keyboard.type(' again');
    await page.keyboard.press('ArrowRight');
    assert.equal(await currentSlide(page), 'title', 'keys in the box stay in it');
    assert.ok(
      (await focused(page)).startsWith('#title textarea') ||
        (await focused(page)).startsWith('#title input'),
    );
    // Escape hands the keyboard back to the deck; the next slide's heading takes focus.
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowRight');
    await waitForSlide(page, ids[1]);
    assert.equal(await focused(page), `#${ids[1]} h2.slide-heading`);
    // The on-screen arrows keep focus, so they can be pressed again and again.
    await page.locator('.reveal .controls .navigate-right').click();
    await waitForSlide(page, ids[2]);
    assert.equal(await focused(page), 'button.navigate-right.enabled');
    await page.keyboard.press('Enter');
    await waitForSlide(page, ids[3]);
  });
});
