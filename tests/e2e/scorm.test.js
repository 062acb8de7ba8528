// The SCORM 1.2 package (tools/build-scorm.js, web/build/scorm-package.js): its zip and manifest,
// then the lesson in it launched by a mock LMS. The LMS page is served from the same origin as the
// unzipped package, holds scorm-again's SCORM 1.2 API as window.API (logging every call) and
// frames the deck, as Moodle's and Canvas's players do. The test answers the knowledge check (some
// right, some wrong), goes to the summary, leaves, and checks what the LMS received; another
// leaves a figure changed and launches again to find it as it was.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { preview } from 'vite';
import { PACKAGE_FILE, writePackage } from '../../tools/build-scorm.js';
import { loadLessons } from '../../web/build/content.js';
import { contentSecurityPolicy } from '../../web/build/vite-plugin-page-head.js';
import { percentScore } from '../../web/src/lms/scorm.js';
import { assertClean, launchBrowser, openPage } from './browser.js';
import { siteDir } from './site-dir.js';

const TIMEOUT = 20_000;
const configFile = fileURLToPath(new URL('../../vite.config.js', import.meta.url));
const LESSONS = loadLessons(fileURLToPath(new URL('../../slides/', import.meta.url)));
const [lesson] = LESSONS;
const require = createRequire(import.meta.url);
const SCORM_AGAIN = path.join(path.dirname(require.resolve('scorm-again')), 'scorm12.min.js');

/**
 * The mock LMS: scorm-again's API as window.API, every call logged, the SCO in a frame. `resume`:
 * what the LMS kept from an earlier launch, loaded before the SCO starts, as an LMS does for an
 * attempt the learner left suspended.
 * @param {{ start?: string, resume?: { location: string, data: string }, launchData?: string }}
 *   [launch] start: the address the SCO opens at, relative to the course; launchData: the SCO's
 *   cmi.launch_data, its item's adlcp:datafromlms
 */
function lmsPage({ start = 'index.html#/knowledge-check', resume, launchData } = {}) {
  const preload = [
    resume
      ? `api.loadFromJSON(${JSON.stringify({
          core: { lesson_location: resume.location, entry: 'resume' },
          suspend_data: resume.data,
        })});`
      : '',
    launchData === undefined
      ? ''
      : `api.loadFromJSON(${JSON.stringify({ launch_data: launchData })});`,
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>Mock LMS</title>
<link rel="icon" href="data:," />
<style>body { margin: 0 } iframe { border: 0; width: 100vw; height: 100vh; display: block }</style>
<script src="scorm12.min.js"></script>
<script>
  window.lmsCalls = [];
  const api = new Scorm12API({ autocommit: false, logLevel: 4 });
  ${preload}
  for (const name of ['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit']) {
    const own = api[name].bind(api);
    api[name] = (...args) => {
      const result = own(...args);
      window.lmsCalls.push({ name, args, result: String(result), error: String(api.LMSGetLastError()) });
      return result;
    };
  }
  window.API = api;
</script>
</head>
<body>
<iframe id="sco" title="Lesson" src="course/${start}"></iframe>
</body>
</html>
`;
}

/**
 * What the manifest says the LMS launches for the lesson at `index`: its SCO's address and the
 * launch data of its item.
 * @param {string} manifest
 * @param {number} index
 * @returns {{ launch: string, launchData: string }}
 */
function scoLaunch(manifest, index) {
  const item = [...manifest.matchAll(/<item\b[^>]*>[\s\S]*?<\/item>/g)][index]?.[0] ?? '';
  const ref = /identifierref="([^"]+)"/.exec(item)?.[1];
  const sco = new RegExp(`<resource identifier="${ref}"[^>]*href="([^"]+)"`).exec(manifest);
  assert.ok(sco, `the SCO of item ${index}`);
  return {
    launch: sco[1].replace(/&amp;/g, '&'),
    launchData: /<adlcp:datafromlms>([^<]*)</.exec(item)?.[1] ?? '',
  };
}

/**
 * Leaves the lesson as an LMS does, taking its frame away, and reads what the LMS received once
 * it has LMSFinish; every call but a read must have been accepted.
 * @param {import('playwright-core').Page} page the mock LMS
 */
async function leaveAndRead(page) {
  await page.evaluate(() => {
    /** @type {HTMLIFrameElement} */ (document.querySelector('#sco')).src = 'about:blank';
  });
  await page.waitForFunction(() => window['lmsCalls'].some((c) => c.name === 'LMSFinish'), null, {
    timeout: TIMEOUT,
  });
  /** @type {{ name: string, args: string[], result: string, error: string }[]} */
  const calls = await page.evaluate(() => window['lmsCalls']);
  const refused = calls.filter((c) => c.name !== 'LMSGetValue' && c.result !== 'true');
  assert.deepEqual(refused, [], 'the LMS accepted every call');
  const sets = calls.filter((c) => c.name === 'LMSSetValue').map((c) => c.args);
  /** @param {string} key @returns {string[]} every value set for it, in order */
  const valueOf = (key) => sets.filter(([k]) => k === key).map(([, v]) => v);
  return { calls, sets, valueOf };
}

/** @type {string} */
let work;
/** @type {{ bytes: number, files: string[] }} */
let built;
/** @type {Record<string, Uint8Array>} */
let entries;

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'attention-scorm-'));
  const zipFile = path.join(work, PACKAGE_FILE);
  built = writePackage(siteDir, zipFile);
  entries = unzipSync(readFileSync(zipFile));
  const course = path.join(work, 'lms', 'course');
  for (const [name, data] of Object.entries(entries)) {
    if (name.endsWith('/')) continue;
    mkdirSync(path.dirname(path.join(course, name)), { recursive: true });
    writeFileSync(path.join(course, name), data);
  }
  copyFileSync(SCORM_AGAIN, path.join(work, 'lms', 'scorm12.min.js'));
  writeFileSync(path.join(work, 'lms', 'lms.html'), lmsPage());
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the package', () => {
  test('has its manifest at the root, listing every file, one SCO per lesson, no mastery score', (t) => {
    const names = Object.keys(entries);
    t.diagnostic(
      `${PACKAGE_FILE}: ${built.bytes} bytes (${(built.bytes / 1024 / 1024).toFixed(2)} MB), ${names.length} files`,
    );
    assert.equal(names[0], 'imsmanifest.xml', 'the manifest comes first, at the root');
    assert.ok(
      !names.some((name) => name.endsWith('/') || name.startsWith('/') || name.includes('..')),
    );
    const manifest = new TextDecoder().decode(entries['imsmanifest.xml']);
    assert.match(manifest, /<schema>ADL SCORM<\/schema>/);
    assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
    assert.doesNotMatch(manifest, /masteryscore/i);
    const resources = [...manifest.matchAll(/<resource\b[^>]*>[\s\S]*?<\/resource>/g)].map(
      ([resource]) => resource,
    );
    const scos = resources.filter((resource) => /adlcp:scormtype="sco"/.test(resource));
    assert.equal(scos.length, LESSONS.length, 'one SCO per lesson');
    assert.match(scos[0], /identifier="attention-lab-sco"[^>]*href="index\.html"/);
    const shared = resources.filter((resource) => /adlcp:scormtype="asset"/.test(resource));
    assert.equal(shared.length, 1, 'one resource of shared files');
    const listed = [...shared[0].matchAll(/<file href="([^"]+)"/g)].map(([, href]) =>
      decodeURIComponent(href),
    );
    const files = names.filter((name) => name !== 'imsmanifest.xml');
    assert.deepEqual(
      [...listed].sort(),
      [...files].sort(),
      'every file listed, every listed file there',
    );
    for (const { launch } of LESSONS.map((_, index) => scoLaunch(manifest, index))) {
      assert.ok(files.includes(launch.split('?')[0]), launch);
    }
    assert.deepEqual(files, [...files].sort(), 'entries in sorted order');
  });

  test('comes out byte for byte the same from the same site', () => {
    const again = path.join(work, 'again.zip');
    writePackage(siteDir, again);
    assert.ok(readFileSync(again).equals(readFileSync(path.join(work, PACKAGE_FILE))));
  });
});

describe('the lesson in an LMS', () => {
  /** @type {{ url: string, close: () => Promise<void> } | undefined} */
  let server;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;

  before(async () => {
    const lms = await preview({
      configFile,
      logLevel: 'warn',
      build: { outDir: path.join(work, 'lms') },
      preview: { host: '127.0.0.1', port: 0, strictPort: true, open: false },
    });
    const url = lms.resolvedUrls?.local[0];
    if (!url) throw new Error('the mock LMS is not listening');
    server = { url, close: () => lms.close() };
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('reports the status, the score and each answer, then commits and finishes', async () => {
    assert.ok(server && browser);
    const origin = new URL(server.url).origin;
    const session = await openPage(browser);
    const { page } = session;
    try {
      await page.goto(new URL('lms.html', server.url).href);
      const frame = page.frameLocator('#sco');
      const quiz = frame.locator('section#knowledge-check .quiz');
      await quiz.waitFor({ timeout: TIMEOUT });
      const sco = page.frame({ url: /\/course\/index\.html/ });
      assert.ok(sco, 'the SCO frame');

      // The page's own policy, unloosened: nothing is needed to talk to the LMS's frame.
      const policy = await sco.evaluate(() =>
        document
          .querySelector('meta[http-equiv="Content-Security-Policy"]')
          ?.getAttribute('content'),
      );
      const allow =
        /content="([^"]*)"/.exec(
          /<meta\s+name="csp-allow"[^>]*>/.exec(
            readFileSync(fileURLToPath(new URL('../../web/index.html', import.meta.url)), 'utf8'),
          )?.[0] ?? '',
        )?.[1] ?? '';
      assert.equal(policy, contentSecurityPolicy(allow.split(/\s+/).filter(Boolean)));

      const started = await page.evaluate(() => window['lmsCalls'].map((c) => c.name));
      assert.equal(started[0], 'LMSInitialize');

      // Static questions: right, wrong, right, wrong in turn. A live question: its first choice,
      // and the page says whether that was right.
      const byId = new Map(lesson.quiz.items.map((item) => [item.id, item]));
      /** @type {{ id: string, choice: number, correctChoice: number }[]} */
      const given = [];
      for (const [k, id] of lesson.quiz.check.entries()) {
        const item = byId.get(id);
        await quiz
          .locator('.quiz-question:not([hidden]) input[type="radio"]')
          .first()
          .waitFor({ timeout: TIMEOUT });
        const count = await quiz.getByRole('radio').count();
        const live = 'generator' in item;
        const choice = live ? 0 : k % 2 === 0 ? item.answer : (item.answer + 1) % count;
        await quiz.getByRole('radio').nth(choice).check();
        await quiz.getByRole('button', { name: 'Check' }).click();
        await quiz.locator('.quiz-explanation').waitFor({ timeout: TIMEOUT });
        const correctChoice = await quiz
          .locator('.quiz-choice')
          .evaluateAll((labels) =>
            labels.findIndex((label) => label.classList.contains('is-correct')),
          );
        if (!live) assert.equal(correctChoice, item.answer, `${id}: the page marks the answer`);
        given.push({ id, choice, correctChoice });
        await quiz.locator('.quiz-next').click();
      }
      const right = given.filter((g) => g.choice === g.correctChoice).length;
      assert.ok(right > 0 && right < given.length, 'some right, some wrong');

      const beforeSummary = await page.evaluate(() => window['API'].cmi.core.lesson_status);
      assert.equal(beforeSummary, 'incomplete');
      await sco.evaluate(() => {
        location.hash = '#/summary';
      });
      await sco.waitForFunction(
        () => document.querySelector('.reveal .slides > section.present')?.id === 'summary',
        null,
        { timeout: TIMEOUT },
      );
      await page.waitForFunction(() => window['API'].cmi.core.lesson_status === 'completed', null, {
        timeout: TIMEOUT,
      });

      // Leave: the LMS takes the frame away.
      const { calls, valueOf } = await leaveAndRead(page);

      assert.deepEqual(valueOf('cmi.core.lesson_status'), ['incomplete', 'completed']);
      assert.deepEqual(valueOf('cmi.core.score.min'), ['0']);
      assert.deepEqual(valueOf('cmi.core.score.max'), ['100']);
      // The score after each answer that raised it: the share right so far of all the questions.
      const total = lesson.quiz.check.length;
      const rising = [];
      given.forEach((_, k) => {
        const sofar = given.slice(0, k + 1).filter((g) => g.choice === g.correctChoice).length;
        const score = String(Math.round((100 * sofar) / total));
        if (rising.at(-1) !== score) rising.push(score);
      });
      assert.deepEqual(valueOf('cmi.core.score.raw'), rising);
      assert.equal(rising.at(-1), String(percentScore(right, total)));

      const letter = (i) => String.fromCharCode(97 + i);
      given.forEach((g, n) => {
        const at = `cmi.interactions.${n}`;
        assert.deepEqual(valueOf(`${at}.id`), [g.id]);
        assert.deepEqual(valueOf(`${at}.type`), ['choice']);
        assert.deepEqual(valueOf(`${at}.student_response`), [letter(g.choice)]);
        assert.deepEqual(valueOf(`${at}.correct_responses.0.pattern`), [letter(g.correctChoice)]);
        assert.deepEqual(valueOf(`${at}.result`), [
          g.choice === g.correctChoice ? 'correct' : 'wrong',
        ]);
        assert.match(valueOf(`${at}.time`)[0] ?? '', /^\d\d:\d\d:\d\d$/);
      });
      assert.deepEqual(
        valueOf(`cmi.interactions.${given.length}.id`),
        [],
        'one interaction per answer',
      );

      const names = calls.map((c) => c.name);
      assert.equal(names.filter((n) => n === 'LMSInitialize').length, 1);
      assert.equal(names.filter((n) => n === 'LMSFinish').length, 1);
      assert.equal(names.at(-1), 'LMSFinish');
      assert.equal(names.at(-2), 'LMSCommit', 'a commit just before finishing');
      assert.ok(names.filter((n) => n === 'LMSCommit').length >= given.length + 2);
      assert.match(valueOf('cmi.core.session_time')[0] ?? '', /^\d{4}:\d\d:\d\d\.\d\d$/);
      assert.deepEqual(valueOf('cmi.core.exit'), ['']);

      // What the LMS holds now.
      const held = await page.evaluate(() => {
        const { core, interactions } = window['API'].cmi;
        return {
          status: core.lesson_status,
          raw: core.score.raw,
          count: interactions.childArray.length,
        };
      });
      assert.deepEqual(held, {
        status: 'completed',
        raw: String(percentScore(right, given.length)),
        count: given.length,
      });
      assertClean(session.log, origin);
    } finally {
      await session.close();
    }
  });

  test('each other lesson reports its score and completion to its own SCO', async () => {
    assert.ok(server && browser);
    const origin = new URL(server.url).origin;
    const manifest = new TextDecoder().decode(entries['imsmanifest.xml']);
    for (const [index, other] of LESSONS.entries()) {
      if (index === 0) continue;
      // The LMS launches the SCO as the manifest says: its address, and its item's launch data.
      const { launch, launchData } = scoLaunch(manifest, index);
      const file = `lms-${other.lesson.key}.html`;
      writeFileSync(
        path.join(work, 'lms', file),
        lmsPage({ start: `${launch}#/knowledge-check`, launchData }),
      );
      const session = await openPage(browser);
      const { page } = session;
      try {
        await page.goto(new URL(file, server.url).href);
        const frame = page.frameLocator('#sco');
        const quiz = frame.locator('section#knowledge-check .quiz');
        await quiz.waitFor({ timeout: TIMEOUT });
        const sco = page.frame({ url: /\/course\/index\.html/ });
        assert.ok(sco, 'the SCO frame');
        assert.match(await sco.title(), new RegExp(other.lesson.title));
        // Every other question answered right, the first among them.
        const byId = new Map(other.quiz.items.map((item) => [item.id, item]));
        let right = 0;
        for (const [k, id] of other.quiz.check.entries()) {
          const item = byId.get(id);
          assert.ok(!('generator' in item), `${id}: a static question`);
          await quiz
            .locator('.quiz-question:not([hidden]) input[type="radio"]')
            .first()
            .waitFor({ timeout: TIMEOUT });
          const count = await quiz.getByRole('radio').count();
          const choice = k % 2 === 0 ? item.answer : (item.answer + 1) % count;
          if (choice === item.answer) right += 1;
          await quiz.getByRole('radio').nth(choice).check();
          await quiz.getByRole('button', { name: 'Check' }).click();
          await quiz.locator('.quiz-explanation').waitFor({ timeout: TIMEOUT });
          await quiz.locator('.quiz-next').click();
        }
        await sco.evaluate(() => {
          location.hash = '#/summary';
        });
        await page.waitForFunction(
          () => window['API'].cmi.core.lesson_status === 'completed',
          null,
          {
            timeout: TIMEOUT,
          },
        );
        const { sets, valueOf } = await leaveAndRead(page);
        assert.deepEqual(valueOf('cmi.core.lesson_status'), ['incomplete', 'completed']);
        const total = other.quiz.check.length;
        assert.equal(valueOf('cmi.core.score.raw').at(-1), String(percentScore(right, total)));
        const answered = sets
          .filter(([k]) => /^cmi\.interactions\.\d+\.id$/.test(k))
          .map(([, v]) => v);
        assert.deepEqual(answered, other.quiz.check, 'one interaction per answer, its own ids');
        const held = await page.evaluate(() => ({
          status: window['API'].cmi.core.lesson_status,
          raw: window['API'].cmi.core.score.raw,
          location: window['API'].cmi.core.lesson_location,
        }));
        assert.deepEqual(held, {
          status: 'completed',
          raw: String(percentScore(right, total)),
          location: 'summary',
        });
        assertClean(session.log, origin);
      } finally {
        await session.close();
      }
    }
  });

  test('a learner who leaves comes back to the slide and the figure they left', async () => {
    assert.ok(server && browser);
    const origin = new URL(server.url).origin;
    const sentence = 'The river bank was steep after the rain.';
    writeFileSync(
      path.join(work, 'lms', 'lms-position.html'),
      lmsPage({ start: 'index.html#/position' }),
    );
    const first = await openPage(browser);
    /** @type {{ location: string, data: string }} */
    let kept;
    try {
      await first.page.goto(new URL('lms-position.html', server.url).href);
      const box = first.page.frameLocator('#sco').locator('#position .pos-sentence');
      await box.waitFor({ timeout: TIMEOUT });
      await box.fill(sentence);
      // Leave: the LMS takes the frame away, and the learner's place is in before LMSFinish.
      await first.page.evaluate(() => {
        /** @type {HTMLIFrameElement} */ (document.querySelector('#sco')).src = 'about:blank';
      });
      await first.page.waitForFunction(
        () => window['lmsCalls'].some((c) => c.name === 'LMSFinish'),
        null,
        { timeout: TIMEOUT },
      );
      kept = await first.page.evaluate(() => ({
        location: window['API'].cmi.core.lesson_location,
        data: window['API'].cmi.suspend_data,
      }));
      assert.equal(kept.location, 'position');
      assert.deepEqual(JSON.parse(kept.data).figures.position.set.sentence, sentence);
      assert.ok(kept.data.length <= 4096);
      assertClean(first.log, origin);
    } finally {
      await first.close();
    }

    // The next launch: the LMS opens the lesson at its start, with what it kept.
    writeFileSync(
      path.join(work, 'lms', 'lms-resume.html'),
      lmsPage({ start: 'index.html', resume: kept }),
    );
    const second = await openPage(browser);
    try {
      await second.page.goto(new URL('lms-resume.html', server.url).href);
      const sco = second.page.frameLocator('#sco');
      await sco.locator('#position.present .pos-out svg.heatmap-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(await sco.locator('#position .pos-sentence').inputValue(), sentence);
      assertClean(second.log, origin);
    } finally {
      await second.close();
    }
  });

  test('outside an LMS the packaged lesson sends and stores nothing', async () => {
    assert.ok(server && browser);
    const origin = new URL(server.url).origin;
    const session = await openPage(browser);
    const { page } = session;
    try {
      await page.goto(new URL('course/index.html#/knowledge-check', server.url).href);
      const quiz = page.locator('section#knowledge-check .quiz');
      await quiz.waitFor({ timeout: TIMEOUT });
      const first = lesson.quiz.items.find((item) => item.id === lesson.quiz.check[0]);
      await quiz.getByRole('radio').nth(first.answer).check();
      await quiz.getByRole('button', { name: 'Check' }).click();
      await quiz.getByRole('status').getByText('Correct.').waitFor({ timeout: TIMEOUT });
      await page.evaluate(() => {
        location.hash = '#/summary';
      });
      await page.waitForFunction(
        () => document.querySelector('.reveal .slides > section.present')?.id === 'summary',
      );
      const stored = await page.evaluate(() => [localStorage.length, sessionStorage.length]);
      assert.deepEqual(stored, [0, 0]);
      const asked = session.log.requests.filter((url) => /lms\.html|scorm12/.test(url));
      assert.deepEqual(asked, []);
      const sent = session.log.requests.filter((url) => !url.startsWith(`${origin}/course/`));
      assert.deepEqual(sent, [], 'nothing outside the package');
      assertClean(session.log, origin);
    } finally {
      await session.close();
    }
  });
});
