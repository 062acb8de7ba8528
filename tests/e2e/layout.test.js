// End-to-end tests of the deck's layout on any machine: every slide of every lesson fits its
// 1280 x 720 frame with room to spare, and on a phone every slide is a page that nothing covers
// or cuts. Each test
// runs twice, in browsers that see different fonts (browser.js: FONT_SETS, a fresh machine's
// DejaVu only, and a desktop's Noto and Liberation), and checks that the page draws its text in
// its own fonts, so that a pass never rests on whatever fonts this machine has. A walk through the
// slides moves one page from slide to slide and view to view, as a learner would.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FONT_SETS, afterFrame, moveToSlide, slideViews, useSite } from './browser.js';
import { LESSONS, lessonPath } from './lessons-walk.js';

const TIMEOUT = 15_000;
/** The free height every slide keeps below its content, in slide pixels. */
const ROOM = 8;
const PHONE = { width: 360, height: 740 };
/** A projector's screen, where the deck draws its frame 1.5 times as large. */
const PROJECTOR = { width: 1920, height: 1080 };
/** An older laptop's screen, where the frame is drawn at 0.8 of its size. */
const SMALL_SCREEN = { width: 1024, height: 768 };
/** Every lesson, its address and its walk: every slide in every view of its figure. */
const WALKS = LESSONS.map((lesson) => ({
  key: lesson.lesson.key,
  start: lessonPath(lesson, 'index.html', `#/${lesson.slides[0].id}`),
  walk: slideViews(lesson.slides),
}));

/**
 * Shows slide `id` (in its figure's view `view`, when given) in the deck open in `page`, moved
 * there as a learner would (browser.js: moveToSlide), once its figure is drawn and its fonts
 * have come.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {string | null} [view]
 */
async function showSlide(page, id, view = null) {
  await moveToSlide(page, id, view);
  await page.evaluate(() => document.fonts.ready);
  await afterFrame(page);
}

/**
 * How far a slide spills out of a frame ROOM pixels shorter than its own: anything drawn below
 * .slide-main, or scrolled inside its boxes (a figure's column included), in pixels. Content that
 * is placed at the bottom of the frame moves up with it; content that needs the height does not.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @returns {Promise<number>}
 */
function spillWithRoom(page, id) {
  return page.evaluate(
    ({ slideId, room }) => {
      const section = /** @type {HTMLElement} */ (document.getElementById(slideId));
      const frame = /** @type {HTMLElement} */ (section.querySelector('.slide-frame'));
      const before = parseFloat(getComputedStyle(frame).paddingBottom);
      frame.style.paddingBottom = `${before + room}px`;
      try {
        const scale = section.getBoundingClientRect().height / section.offsetHeight || 1;
        const boxes = section.querySelectorAll(
          '.slide-main, .slide-text, .hm-output, .mh-output, .lm-output',
        );
        const main = /** @type {Element} */ (section.querySelector('.slide-main'));
        const bottom = main.getBoundingClientRect().bottom;
        const scrolled = [...boxes].map((box) => box.scrollHeight - box.clientHeight);
        // What a closed <details> holds is not drawn.
        const drawn = [...main.querySelectorAll('*')].filter(
          (node) => !node.closest('details:not([open]) > :not(summary)'),
        );
        const below = drawn.map((node) => (node.getBoundingClientRect().bottom - bottom) / scale);
        return Math.max(...scrolled, ...below);
      } finally {
        frame.style.removeProperty('padding-bottom');
      }
    },
    { slideId: id, room: ROOM },
  );
}

/**
 * The fonts the browser really drew an element's text with (not what CSS asked for), from the
 * rendering engine itself.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @returns {Promise<{ familyName: string, isCustomFont: boolean, glyphCount: number }[]>}
 */
async function drawnFonts(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    assert.ok(nodeId, `${selector} is on the page`);
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts;
  } finally {
    await cdp.detach();
  }
}

/**
 * Checks that all of an element's text was drawn in the page's own file of `family`.
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @param {string} family
 */
async function assertOwnFont(page, selector, family) {
  const fonts = await drawnFonts(page, selector);
  assert.ok(fonts.length > 0, `${selector} draws text`);
  for (const font of fonts) {
    assert.ok(
      font.isCustomFont && font.familyName.startsWith(family),
      `${selector}: ${font.glyphCount} glyphs drawn in ${font.familyName}, not the page's ${family}`,
    );
  }
}

/**
 * The rectangles of every piece of text and every control a slide shows, in page pixels: the
 * parts inside the slide's visible box (what it has scrolled out of view is not shown).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @returns {Promise<{ text: string, left: number, top: number, right: number, bottom: number }[]>}
 */
function drawnRects(page, id) {
  return page.evaluate((slideId) => {
    const section = /** @type {HTMLElement} */ (document.getElementById(slideId));
    const box = section.getBoundingClientRect();
    const visible = (node) => !node.closest('details:not([open]) > :not(summary)');
    const rects = [];
    const add = (text, r) => {
      const top = Math.max(r.top, box.top);
      const bottom = Math.min(r.bottom, box.bottom);
      if (r.width > 0 && bottom > top)
        rects.push({ text, left: r.left, right: r.right, top, bottom });
    };
    const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent?.trim() || !parent || !visible(parent)) continue;
      if (parent.closest('aside.notes')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) add(node.textContent.trim(), r);
    }
    for (const node of section.querySelectorAll('input, button, select, textarea, svg')) {
      if (!visible(node) || (node.parentElement?.closest('svg') ?? null)) continue;
      add(`<${node.tagName}>`, node.getBoundingClientRect());
    }
    return rects;
  }, id);
}

for (const fonts of FONT_SETS) {
  describe(`layout with the ${fonts} font set`, () => {
    const site = useSite({ fonts });

    test('every page draws its text in its own fonts', async () => {
      await site.visit('index.html#/weighted-retrieval', async (page) => {
        await showSlide(page, 'weighted-retrieval', 'weighted-retrieval');
        const faces = await page.evaluate(() =>
          [...document.fonts]
            .filter((face) => face.status === 'loaded')
            .map((face) => `${face.family} ${face.style}`),
        );
        assert.ok(faces.includes('Atkinson Hyperlegible Next Lab normal'), faces.join(', '));
        await assertOwnFont(
          page,
          '#weighted-retrieval .slide-heading',
          'Atkinson Hyperlegible Next',
        );
        await assertOwnFont(
          page,
          '#weighted-retrieval .slide-body li',
          'Atkinson Hyperlegible Next',
        );
        await assertOwnFont(page, '#weighted-retrieval .wr-formula', 'Source Serif 4');
        await assertOwnFont(
          page,
          '#weighted-retrieval .slide-counter',
          'Atkinson Hyperlegible Next',
        );
      });
      await site.visit('index.html#/title', async (page) => {
        await showSlide(page, 'title', 'heatmap');
        await page.locator('#title details.heatmap-details summary').first().click();
        await page.locator('#title .heatmap-table td').first().waitFor({ timeout: TIMEOUT });
        await page.evaluate(() => document.fonts.ready);
        await assertOwnFont(page, '#title .heatmap-table td', 'Atkinson Hyperlegible Mono');
      });
      const pages = {
        'article.html': '#article section p',
        'practice.html': '.practice-lede',
        'lessons.html': '.lessons-course',
      };
      for (const [path, paragraph] of Object.entries(pages)) {
        await site.visit(path, async (page) => {
          await page.locator(paragraph).first().waitFor({ timeout: TIMEOUT });
          await page.evaluate(() => document.fonts.ready);
          await assertOwnFont(page, 'h1', 'Atkinson Hyperlegible Next');
          await assertOwnFont(page, paragraph, 'Atkinson Hyperlegible Next');
        });
      }
    });

    test('a face that comes late hardly moves the text: its fallback has its metrics', async () => {
      // Records every layout shift from the first paint on (buffered: those before the
      // observer ran too).
      const watchShifts = () => {
        const shifts = /** @type {number[]} */ ([]);
        /** @type {any} */ (window).layoutShifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) shifts.push(/** @type {any} */ (entry).value);
        }).observe({ type: 'layout-shift', buffered: true });
      };
      for (const [path, ready] of [
        ['index.html?figure=title&show=heatmap#/title', '#title .hm-figure svg.heatmap-svg'],
        ['lessons.html', 'h1'],
      ]) {
        await site.visit(
          path,
          async (page) => {
            await page.locator(ready).first().waitFor({ timeout: TIMEOUT });
            await page.evaluate(() => document.fonts.ready);
            await afterFrame(page);
            const shifts = await page.evaluate(() => /** @type {any} */ (window).layoutShifts);
            // The sum is the page's layout-shift score; 0.1 is the usual line for "good". The
            // text faces came a second after the page: whatever moved, moved little.
            const score = shifts.reduce((sum, value) => sum + value, 0);
            assert.ok(score < 0.02, `${path}: layout shifts ${shifts.join(', ')}`);
          },
          {
            initScript: watchShifts,
            route: [/atkinson-hyperlegible-next-.*\.woff2$/, 1000],
          },
        );
      }
    });

    /**
     * Walks every lesson's deck, one page a lesson, and runs `check` on each slide in each view
     * of its figure once it is shown.
     * @param {import('./browser.js').PageOptions | undefined} options
     * @param {(page: import('playwright-core').Page, id: string, where: string) => Promise<void>}
     *   check where: the lesson, slide and view, for messages
     */
    async function walkEveryLesson(options, check) {
      for (const { key, start, walk } of WALKS) {
        await site.visit(
          start,
          async (page) => {
            for (const [id, view] of walk) {
              await showSlide(page, id, view);
              await check(page, id, `${key}: ${view ? `${id} (${view})` : id}`);
            }
          },
          options,
        );
      }
    }

    test(`on a 1280 x 720 screen every slide fits its frame with ${ROOM} px to spare`, async () => {
      /** @type {string[]} every slide that does not fit, so that one run names them all */
      const problems = [];
      await walkEveryLesson(undefined, async (page, id, where) => {
        const over = await spillWithRoom(page, id);
        if (over > 0) problems.push(`${where} spills ${over}px out of a frame ${ROOM}px shorter`);
        const zoom = await page.locator(`#${id} .slide-text`).evaluate((n) => n.style.zoom);
        if (zoom !== '') problems.push(`${where} fits only by shrinking its text`);
      });
      assert.deepEqual(problems, []);
    });

    // The deck scales its 1280 x 720 frame to the screen: a figure that fits its column must
    // measure it in the frame's pixels, not the screen's, to fit the same on a projector.
    for (const screen of [PROJECTOR, SMALL_SCREEN]) {
      test(`on a ${screen.width} x ${screen.height} screen every slide fits its frame as well`, async () => {
        /** @type {string[]} */
        const problems = [];
        await walkEveryLesson({ viewport: screen }, async (page, id, where) => {
          const over = await spillWithRoom(page, id);
          if (over > 0) problems.push(`${where} spills ${over}px out of a frame ${ROOM}px shorter`);
        });
        assert.deepEqual(problems, []);
      });
    }

    test(`on a 1280 x 720 screen the multi-head slide fits with its largest head count too`, async () => {
      await site.visit('index.html#/multi-head', async (page) => {
        await showSlide(page, 'multi-head', 'multi-head');
        await page.locator('#multi-head .mh-out svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
        const choices = page.locator('#multi-head .mh-choice');
        const largest = await choices.last().textContent();
        assert.equal(largest, '10', 'the divisors of 100 up to 16 end at 10');
        await choices.last().click();
        await page.waitForFunction(
          (h) => document.querySelectorAll('#multi-head .mh-tile svg').length === h,
          Number(largest),
        );
        const over = await spillWithRoom(page, 'multi-head');
        assert.ok(over <= 0, `with ${largest} heads the slide spills ${over}px`);
      });
    });

    test('on a phone each slide is a readable page that nothing covers or cuts', async () => {
      await walkEveryLesson({ viewport: PHONE, colorScheme: 'dark' }, async (page, id, shown) => {
        const looks = await page.evaluate((slideId) => {
          const section = /** @type {HTMLElement} */ (document.getElementById(slideId));
          const text = /** @type {Element} */ (section.querySelector('.slide-body'));
          const cut = [...section.querySelectorAll('.katex-display')].filter((box) => {
            const wider = box.scrollWidth > box.clientWidth + 1;
            return wider && getComputedStyle(box).overflowX !== 'auto';
          });
          return {
            sideways: section.scrollWidth - section.clientWidth,
            font: parseFloat(getComputedStyle(text).fontSize),
            cut: cut.length,
          };
        }, id);
        assert.equal(looks.sideways, 0, `${shown} scrolls sideways`);
        assert.ok(looks.font >= 16, `${shown} text is ${looks.font}px`);
        assert.equal(looks.cut, 0, `${shown} cuts a formula off`);
        // The arrows have their own strip: no text or control is under them, wherever the
        // page is scrolled to.
        const arrows = await page
          .locator('.reveal .controls button:not([disabled])')
          .evaluateAll((buttons) =>
            buttons.map((b) => b.getBoundingClientRect().toJSON()).filter((r) => r.width > 0),
          );
        for (const where of ['top', 'bottom']) {
          await page.evaluate(
            ({ slideId, end }) => {
              const section = /** @type {HTMLElement} */ (document.getElementById(slideId));
              section.scrollTop = end === 'top' ? 0 : section.scrollHeight;
            },
            { slideId: id, end: where },
          );
          const covered = (await drawnRects(page, id)).filter((r) =>
            arrows.some(
              (a) => r.left < a.right && a.left < r.right && r.top < a.bottom && a.top < r.bottom,
            ),
          );
          assert.deepEqual(
            covered.map((r) => r.text),
            [],
            `${shown}, scrolled to the ${where}: under the arrows`,
          );
        }
      });
    });

    test('on a phone a formula wider than the screen shrinks to fit, or scrolls in its box', async () => {
      await site.visit(
        'index.html#/multi-head',
        async (page) => {
          await showSlide(page, 'multi-head');
          const formulas = await page.locator('#multi-head .katex-display').evaluateAll((boxes) =>
            boxes.map((box) => ({
              fits: box.scrollWidth <= box.clientWidth + 1,
              font: parseFloat(
                getComputedStyle(/** @type {Element} */ (box.firstElementChild)).fontSize,
              ),
            })),
          );
          assert.ok(formulas.length >= 2, 'the slide has its two formulas');
          for (const formula of formulas) {
            assert.ok(formula.fits, 'the formula is shown whole');
            assert.ok(formula.font >= 12, `the formula is still readable (${formula.font}px)`);
          }
        },
        { viewport: PHONE },
      );
    });
  });
}
