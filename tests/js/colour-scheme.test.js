// The dark colour scheme sets colours and nothing else: in the stylesheets, each block under
// `prefers-color-scheme: dark` sets only custom properties to colours and `color-scheme` to dark,
// and the one script that reads the scheme takes the heatmap's colour stops from it. So a page
// differs between the schemes only in its colours, and the browser tests run axe's rules on colour
// alone in the dark scheme, all its rules in the light one (tests/e2e/axe.js).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const DARK = /prefers-color-scheme\s*:\s*dark/;
/** The only script that reads the colour scheme: it turns the scheme's colour stops into pixels. */
const SCRIPTS_THAT_READ_THE_SCHEME = ['web/src/views/heatmap/pixels.js'];

/**
 * The files under a folder of the repository whose names end in one of `extensions`.
 * @param {string} folder relative to the repository
 * @param {string[]} extensions
 * @returns {string[]} relative to the repository
 */
function filesUnder(folder, extensions) {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !path.includes('engine/generated/'))
    .sort();
}

/**
 * The text between the braces of each @media block of `css` whose condition matches the dark
 * scheme (its nested rules included).
 * @param {string} css
 * @returns {string[]}
 */
function darkBlocks(css) {
  const blocks = [];
  const source = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const match of source.matchAll(/@media([^{]*)\{/g)) {
    if (!DARK.test(match[1])) continue;
    let depth = 1;
    let k = match.index + match[0].length;
    const start = k;
    for (; k < source.length && depth > 0; k++) {
      if (source[k] === '{') depth++;
      else if (source[k] === '}') depth--;
    }
    assert.equal(depth, 0, 'an @media block is closed');
    blocks.push(source.slice(start, k - 1));
  }
  return blocks;
}

/**
 * The declarations of a block's rules, as [property, value] pairs.
 * @param {string} block
 * @returns {[string, string][]}
 */
function declarations(block) {
  return [...block.matchAll(/\{([^{}]*)\}/g)].flatMap((rule) =>
    rule[1]
      .split(';')
      .map((text) => text.trim())
      .filter(Boolean)
      .map((text) => {
        const colon = text.indexOf(':');
        return /** @type {[string, string]} */ ([
          text.slice(0, colon).trim(),
          text.slice(colon + 1).trim(),
        ]);
      }),
  );
}

/** A colour as the stylesheets write one: #rgb, #rrggbb or #rrggbbaa. */
const COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

test('the dark scheme sets only colours in the stylesheets', () => {
  const files = filesUnder('web', ['.css', '.html']);
  assert.ok(files.length > 10, `stylesheets found: ${files.join(', ')}`);
  const found = [];
  let blocks = 0;
  for (const file of files) {
    for (const block of darkBlocks(readFileSync(join(root, file), 'utf8'))) {
      blocks++;
      for (const [property, value] of declarations(block)) {
        const colour = property.startsWith('--') && COLOUR.test(value);
        const scheme = property === 'color-scheme' && value === 'dark';
        if (!colour && !scheme) found.push(`${file}: ${property}: ${value}`);
      }
    }
  }
  assert.ok(blocks > 0, 'the stylesheets have a dark scheme');
  assert.deepEqual(found, [], 'declarations of the dark scheme that are not colours');
});

test('the packages the pages style with have no dark scheme of their own', () => {
  const files = ['node_modules/reveal.js/dist', 'node_modules/katex/dist'].flatMap((folder) =>
    filesUnder(folder, ['.css']),
  );
  assert.ok(files.length > 0);
  assert.deepEqual(
    files.filter((file) => DARK.test(readFileSync(join(root, file), 'utf8'))),
    [],
  );
});

test('only the heatmap pixels read the colour scheme in script', () => {
  const scripts = filesUnder('web', ['.js', '.mjs', '.ts']).filter((file) => {
    const source = readFileSync(join(root, file), 'utf8');
    return /prefers-color-scheme|light-dark\(|colorScheme/.test(source);
  });
  assert.deepEqual(scripts, SCRIPTS_THAT_READ_THE_SCHEME);
});
