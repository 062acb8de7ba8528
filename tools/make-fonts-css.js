// Writes web/src/styles/fonts.css: the lesson's own type, so it lays out the same on every
// machine. Three open-licensed families (SIL Open Font License 1.1) from npm packages, each one
// variable file per style, Latin and Latin Extended only (other scripts fall through to the
// system's fonts):
//   sans   Atkinson Hyperlegible Next (Braille Institute): told-apart letter shapes that stay
//          readable on a projector at the back of a room and on a 360 px phone;
//   mono   Atkinson Hyperlegible Mono, its monospaced sibling, for numbers in tables;
//   serif  Source Serif 4 (Adobe), for the one formula set in a book face.
//
// Between the page's first paint and the arrival of a face, text is laid out in a local fallback
// whose metrics are scaled to those of the face (size-adjust, ascent/descent/line-gap overrides),
// so lines keep their length and height when the face swaps in. The metrics come from
// @capsizecss/metrics (measured from the fonts themselves) for the usual system fonts, and are
// read from the DejaVu files that every Debian machine with a browser has with
// @capsizecss/unpack; @capsizecss/core turns them into the @font-face rules.
//
//   node tools/make-fonts-css.js           # write web/src/styles/fonts.css
//   node tools/make-fonts-css.js --check   # exit 1 if the file is not what this script writes
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { createFontStack } from '@capsizecss/core';
import { entireMetricsCollection as metrics } from '@capsizecss/metrics/entireMetricsCollection';
import { fromFile } from '@capsizecss/unpack/fs';
import * as prettier from 'prettier';

const OUT = fileURLToPath(new URL('../web/src/styles/fonts.css', import.meta.url));
const DEJAVU = '/usr/share/fonts/truetype/dejavu';

/**
 * @typedef {object} Family
 * @property {string} variable the CSS custom property that names the stack
 * @property {string} pkg the npm package with the files
 * @property {string} stem the files' common start
 * @property {string} axis the variable file's kind ('wght')
 * @property {string} weights the weight range the file covers
 * @property {('normal' | 'italic')[]} styles
 * @property {string} display font-display for this family
 * @property {string} metrics the family's metrics in @capsizecss/metrics
 * @property {string[]} fallbacks local fonts to scale, from @capsizecss/metrics
 * @property {string} [dejavu] the DejaVu file to scale as the last local fallback
 * @property {string} generic what comes after the local fallbacks: the system's own stack
 */

/** @type {Family[]} */
export const FAMILIES = [
  {
    variable: '--sans',
    pkg: '@fontsource-variable/atkinson-hyperlegible-next',
    stem: 'atkinson-hyperlegible-next',
    axis: 'wght',
    weights: '200 800',
    styles: ['normal', 'italic'],
    // The pages preload this face; text waits for it (briefly: it comes from the page's own
    // server) rather than appearing in another font and moving.
    display: 'block',
    metrics: 'atkinsonHyperlegibleNext',
    fallbacks: ['arial', 'liberationSans', 'helvetica', 'roboto'],
    dejavu: 'DejaVuSans.ttf',
    generic: "system-ui, -apple-system, 'Segoe UI', 'Noto Sans', sans-serif",
  },
  {
    variable: '--mono',
    pkg: '@fontsource-variable/atkinson-hyperlegible-mono',
    stem: 'atkinson-hyperlegible-mono',
    axis: 'wght',
    weights: '200 800',
    styles: ['normal', 'italic'],
    display: 'swap',
    metrics: 'atkinsonHyperlegibleMono',
    fallbacks: ['courierNew', 'liberationMono'],
    dejavu: 'DejaVuSansMono.ttf',
    generic: 'ui-monospace, Menlo, Consolas, monospace',
  },
  {
    variable: '--serif',
    pkg: '@fontsource-variable/source-serif-4',
    stem: 'source-serif-4',
    axis: 'wght',
    weights: '200 900',
    styles: ['normal', 'italic'],
    display: 'swap',
    metrics: 'sourceSerif4',
    fallbacks: ['georgia', 'timesNewRoman', 'liberationSerif'],
    dejavu: 'DejaVuSerif.ttf',
    generic: 'Georgia, serif',
  },
];

/**
 * The Liberation fonts (on many Linux machines) have the widths and heights of Arial, Courier
 * New and Times New Roman by design, so they take those metrics under their own names.
 * @type {Record<string, import('@capsizecss/core').FontMetrics>}
 */
const LIBERATION = {
  liberationSans: {
    ...metrics.arial,
    familyName: 'Liberation Sans',
    fullName: 'Liberation Sans',
    postscriptName: 'LiberationSans',
  },
  liberationMono: {
    ...metrics.courierNew,
    familyName: 'Liberation Mono',
    fullName: 'Liberation Mono',
    postscriptName: 'LiberationMono',
  },
  liberationSerif: {
    ...metrics.timesNewRoman,
    familyName: 'Liberation Serif',
    fullName: 'Liberation Serif',
    postscriptName: 'LiberationSerif',
  },
};

/**
 * The scripts each file covers: the packages' own unicode ranges for Latin and Latin Extended.
 * @type {[string, string][]}
 */
const SUBSETS = [
  [
    'latin-ext',
    'U+0100-02BA, U+02BD-02C5, U+02C7-02CC, U+02CE-02D7, U+02DD-02FF, U+0304, U+0308, U+0329, U+1D00-1DBF, U+1E00-1E9F, U+1EF2-1EFF, U+2020, U+20A0-20AB, U+20AD-20C0, U+2113, U+2C60-2C7F, U+A720-A7FF',
  ],
  [
    'latin',
    'U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD',
  ],
];

/**
 * The family name a page uses for a face: the font's own name, so a copy installed on the
 * machine can never stand in for the page's file.
 * @param {Family} family
 */
export function faceName(family) {
  return `${metrics[family.metrics].familyName} Lab`;
}

/**
 * The file of one subset and style, as the stylesheet names it (Vite resolves the package path).
 * @param {Family} family
 * @param {string} subset
 * @param {string} style
 */
export function fontFile(family, subset, style) {
  return `${family.pkg}/files/${family.stem}-${subset}-${family.axis}-${style}.woff2`;
}

/**
 * The @font-face rules of a family's own files.
 * @param {Family} family
 * @returns {string}
 */
function ownFaces(family) {
  const rules = [];
  for (const style of family.styles) {
    for (const [subset, range] of SUBSETS) {
      rules.push(
        [
          '@font-face {',
          `  font-family: '${faceName(family)}';`,
          `  font-style: ${style};`,
          `  font-weight: ${family.weights};`,
          `  font-display: ${family.display};`,
          `  src: url('${fontFile(family, subset, style)}') format('woff2');`,
          `  unicode-range: ${range};`,
          '}',
        ].join('\n'),
      );
    }
  }
  return rules.join('\n\n');
}

/**
 * The metrics of the local fonts a family falls back to, in order.
 * @param {Family} family
 */
async function fallbackMetrics(family) {
  const list = family.fallbacks.map((name) => LIBERATION[name] ?? metrics[name]);
  if (family.dejavu) {
    const file = `${DEJAVU}/${family.dejavu}`;
    if (!existsSync(file)) {
      throw new Error(
        `${file} is missing: install fonts-dejavu-core (bash scripts/setup.sh browser does)`,
      );
    }
    list.push(await fromFile(file));
  }
  return list;
}

/**
 * The whole stylesheet.
 * @returns {Promise<string>}
 */
export async function fontsCss() {
  const parts = [
    '/* Written by tools/make-fonts-css.js: edit that, then run it. The lesson\u2019s own fonts',
    '   (SIL Open Font License 1.1), and local fallbacks scaled to their metrics. */',
    '',
  ];
  const variables = [];
  for (const family of FAMILIES) {
    const own = metrics[family.metrics];
    const { fontFamily, fontFaces } = createFontStack([own, ...(await fallbackMetrics(family))]);
    // createFontStack names the face by its own family; ours carries the Lab suffix.
    const [, ...rest] = fontFamily.split(', ');
    const localFallbacks = rest.filter((name) => name.includes(' Fallback: '));
    const stack = [`'${faceName(family)}'`, ...localFallbacks, family.generic].join(', ');
    variables.push(`  ${family.variable}: ${stack.replaceAll('"', "'")};`);
    parts.push(ownFaces(family), '', fontFaces.replaceAll('"', "'").trim(), '');
  }
  parts.push(':root {', ...variables, '}', '');
  const options = await prettier.resolveConfig(OUT);
  return prettier.format(parts.join('\n'), { ...options, filepath: OUT });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const css = await fontsCss();
  if (process.argv.includes('--check')) {
    const now = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
    if (now !== css) {
      console.error(`${OUT} is out of date: run node tools/make-fonts-css.js`);
      process.exit(1);
    }
  } else {
    writeFileSync(OUT, css);
    console.log(`wrote ${OUT}`);
  }
}
