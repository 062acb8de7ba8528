// The browser the tests drive: Chromium keeps only the last `--disable-features` switch, so the
// one of browser.js must hold every feature that playwright-core's own switch turns off, or a
// new version of playwright-core would turn some back on unseen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DISABLED_FEATURES, launchBrowser } from './browser.js';

describe('the test browser', () => {
  test('its last --disable-features switch holds every feature any switch turns off', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto('chrome://version');
      const line = (await page.locator('#command_line').textContent()) ?? '';
      const switches = line.match(/--disable-features=\S+/g) ?? [];
      assert.ok(switches.length >= 1, `no --disable-features switch in ${line}`);
      const named = new Set(switches.flatMap((arg) => arg.split('=')[1].split(',')));
      const last = (switches.at(-1) ?? '').split('=')[1].split(',');
      assert.deepEqual(last, DISABLED_FEATURES, 'the last switch is browser.js');
      assert.deepEqual(
        [...named].filter((name) => !last.includes(name)),
        [],
        'features another switch turns off that the last one leaves on',
      );
    } finally {
      await browser.close();
    }
  });

  test('a new page comes without a hidden page of the browser UI beside it', async () => {
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext();
      await context.newPage();
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets');
      assert.deepEqual(
        targetInfos.filter((target) => target.type !== 'page').map((target) => target.url),
        [],
      );
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
