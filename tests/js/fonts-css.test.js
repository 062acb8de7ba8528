// The lesson's font stylesheet is what its generator writes: the faces the pages use, and local
// fallbacks scaled to their metrics, so that text keeps its line breaks while a face loads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FAMILIES, faceName, fontFile, fontsCss } from '../../tools/make-fonts-css.js';

const committed = readFileSync(new URL('../../web/src/styles/fonts.css', import.meta.url), 'utf8');

test('web/src/styles/fonts.css is what tools/make-fonts-css.js writes', async () => {
  assert.equal(committed, await fontsCss(), 'run node tools/make-fonts-css.js');
});

test('every face the stylesheet names is a file of its package', () => {
  for (const family of FAMILIES) {
    for (const style of family.styles) {
      for (const subset of ['latin', 'latin-ext']) {
        const file = fontFile(family, subset, style);
        assert.ok(committed.includes(`url('${file}')`), `${file} is in the stylesheet`);
        const bytes = readFileSync(new URL(`../../node_modules/${file}`, import.meta.url));
        assert.equal(bytes.subarray(0, 4).toString('latin1'), 'wOF2', `${file} is WOFF2`);
      }
    }
  }
});

test('each stack starts with the face, then fallbacks scaled to it, then the system fonts', () => {
  for (const family of FAMILIES) {
    const stack = committed.match(new RegExp(`${family.variable}:([^;]*);`))?.[1] ?? '';
    const names = stack.split(',').map((name) => name.trim());
    assert.equal(names[0], `'${faceName(family)}'`);
    const fallbacks = names.filter((name) => name.includes(' Fallback: '));
    assert.ok(fallbacks.length >= 2, `${family.variable} has scaled fallbacks`);
    for (const fallback of fallbacks) {
      const rule = committed.match(
        new RegExp(`font-family: ${fallback.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')};([^}]*)}`),
      )?.[1];
      assert.ok(rule?.includes('size-adjust'), `${fallback} is scaled`);
      assert.ok(rule?.includes('ascent-override'), `${fallback} keeps the line height`);
    }
    assert.ok(
      names.indexOf(fallbacks[fallbacks.length - 1]) < names.length - 1,
      'system fonts last',
    );
  }
});
