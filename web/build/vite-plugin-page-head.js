// Vite plugin: the head every page shares. Each page in web/ keeps only what is its own (title,
// description, its script) and names, in one tag, what its Content-Security-Policy must allow
// beyond the common policy:
//
//   <meta name="csp-allow" content="engine math speaker-view" />
//
// The plugin puts the shared tags in place of that one: charset, viewport, colour scheme, the
// page's Content-Security-Policy and the icon. The tag must be the first in the head (the charset
// comes early, and the policy before anything it governs). A page without it, with it later, or
// naming an unknown allowance fails the build (and shows in the dev server's overlay).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { MODEL_PATHS, VECTORS_PATH } from '../src/data-files.js';

/**
 * The policy of a page that allows nothing extra: nothing loads from outside this origin.
 * Directives keep this order; an allowance adds sources to a directive or adds one.
 * @type {[string, string[]][]}
 */
const BASE_POLICY = [
  ['default-src', ["'self'"]],
  ['script-src', ["'self'"]],
  ['style-src', ["'self'", "'unsafe-inline'"]],
  // data: images are made in the page itself: the icon below, reveal.js's CSS images, the dense
  // heatmaps (one BMP picture each) and the SVG a PNG export draws from.
  ['img-src', ["'self'", 'data:']],
  ['font-src', []],
  ['connect-src', ["'self'"]],
  // The installable lesson: its service worker (sw.js, which loads Workbox's own file) and its
  // web app manifest, both files of the site (vite.config.js).
  ['worker-src', ["'self'"]],
  ['manifest-src', ["'self'"]],
  ['frame-src', []],
  ['object-src', ["'none'"]],
  ['base-uri', ["'none'"]],
  ['form-action', ["'none'"]],
];

/** The data files a page of figures asks for from its head: the word vectors and the model. */
export const EARLY_DATA = [VECTORS_PATH, MODEL_PATHS.weights, MODEL_PATHS.report];

/**
 * The one inline script of a page with the early-data allowance. Where WebAssembly exists (without
 * it nothing on the page can use these files) it adds a preload for each, so they download while
 * the page's own script is still being fetched and run; the loaders' fetch() (cors mode,
 * same-origin credentials, as `crossorigin` asks) then takes that download instead of making a
 * second. Low priority, as the loaders ask: the page's scripts, styles and fonts come first.
 */
export const EARLY_DATA_SCRIPT =
  'if(typeof WebAssembly==="object")' +
  `for(const href of ${JSON.stringify(EARLY_DATA)}){` +
  'const link=document.createElement("link");' +
  'link.rel="preload";link.as="fetch";link.crossOrigin="anonymous";link.fetchPriority="low";' +
  'link.href=href;document.head.append(link)}';

/** @param {string} text @returns {string} a CSP source admitting an inline script of that text */
function scriptHash(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * What each allowance adds to the policy. A directive left empty is left out, so it falls back
 * to default-src 'self'.
 * @type {Record<string, Record<string, string[]>>}
 */
export const ALLOWANCES = {
  // The attention engine: compiling its WebAssembly. Nothing else: the engine is linked with
  // -sDYNAMIC_EXECUTION=0, so its bindings never build code from strings ('unsafe-eval').
  engine: { 'script-src': ["'wasm-unsafe-eval'"] },
  // KaTeX's fonts, for the typeset math: files of the build (vite.config.js never inlines a font).
  math: { 'font-src': ["'self'"] },
  // The speaker view (S): the hash admits the one inline script that reveal.js's notes plugin
  // writes into its own window, which shows the deck in frames.
  // The early-data script above, admitted by its hash; the page gets the script itself too.
  'early-data': { 'script-src': [scriptHash(EARLY_DATA_SCRIPT)] },
  'speaker-view': {
    'script-src': ["'sha256-GzCveToXhSIzS3M5eQeRm3McVRB7cYneYKwTkzA3wDk='"],
    'frame-src': ["'self'"],
  },
};

/** The page's icon: four squares in the lesson's two blues. */
export const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='8' height='8' fill='%231d3f8f'/%3E%3Crect x='8' width='8' height='8' fill='%2393b7e6'/%3E%3Crect y='8' width='8' height='8' fill='%2393b7e6'/%3E%3Crect x='8' y='8' width='8' height='8' fill='%231d3f8f'/%3E%3C/svg%3E";

/** The tag a page names its allowances in, with its indent. */
const ALLOW_TAG = /^([ \t]*)<meta\s+name="csp-allow"\s+content="([^"]*)"\s*\/?>/m;

/**
 * The Content-Security-Policy of a page with the given allowances.
 * @param {string[]} allow names from ALLOWANCES
 * @returns {string}
 */
export function contentSecurityPolicy(allow) {
  const unknown = allow.filter((name) => !Object.hasOwn(ALLOWANCES, name));
  if (unknown.length > 0) {
    const known = Object.keys(ALLOWANCES).join(', ');
    throw new Error(`unknown CSP allowance ${unknown.join(', ')} (known: ${known})`);
  }
  // In the order of ALLOWANCES, whatever order the page names them in.
  const allowed = Object.keys(ALLOWANCES).filter((name) => allow.includes(name));
  return BASE_POLICY.map(([directive, sources]) => {
    const added = allowed.flatMap((name) => ALLOWANCES[name][directive] ?? []);
    return [directive, [...sources, ...added]];
  })
    .filter(([, sources]) => sources.length > 0)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * An HTML tag with the given attributes, its values quoted and escaped.
 * @param {string} name
 * @param {Record<string, string>} attrs
 */
function tag(name, attrs) {
  const escape = (value) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  const list = Object.entries(attrs).map(([key, value]) => ` ${key}="${escape(value)}"`);
  return `<${name}${list.join('')} />`;
}

/**
 * Puts the shared head tags in a page, in place of its csp-allow tag.
 * @param {string} html the page
 * @param {string} file the page's name, for messages
 * @returns {string} the page with the shared head
 */
export function pageHead(html, file) {
  if (/http-equiv="Content-Security-Policy"/i.test(html)) {
    throw new Error(`${file}: has its own Content-Security-Policy; name a csp-allow instead`);
  }
  const match = ALLOW_TAG.exec(html);
  if (!match) {
    throw new Error(`${file}: no <meta name="csp-allow" content="…" /> in the head`);
  }
  const head = html.search(/<head[\s>]/i);
  const before = html.slice(head, match.index).replace(/^<head[^>]*>/i, '');
  if (head < 0 || before.replace(/<!--[\s\S]*?-->/g, '').trim() !== '') {
    throw new Error(`${file}: <meta name="csp-allow"> must be the first tag in the head`);
  }
  const [, indent, names] = match;
  let policy;
  try {
    policy = contentSecurityPolicy(names.split(/\s+/).filter(Boolean));
  } catch (err) {
    throw new Error(`${file}: ${err.message}`, { cause: err });
  }
  const earlyData = names.split(/\s+/).includes('early-data');
  return html.replace(ALLOW_TAG, () =>
    headTags(policy, ICON, { earlyData })
      .map((line) => indent + line)
      .join('\n'),
  );
}

/**
 * The tags every page's head starts with: charset, viewport, colour scheme, its policy, (for a page
 * of figures) the early-data script, which must come after the policy that admits it, its icon.
 * @param {string} policy the page's Content-Security-Policy
 * @param {string} icon the icon's address
 * @param {{ earlyData?: boolean }} [options]
 * @returns {string[]}
 */
export function headTags(policy, icon, { earlyData = false } = {}) {
  return [
    tag('meta', { charset: 'utf-8' }),
    tag('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
    tag('meta', { name: 'color-scheme', content: 'light dark' }),
    tag('meta', { 'http-equiv': 'Content-Security-Policy', content: policy }),
    ...(earlyData ? [`<script>${EARLY_DATA_SCRIPT}</script>`] : []),
    tag('link', { rel: 'icon', href: icon }),
  ];
}

/** @returns {import('vite').Plugin} */
export default function pageHeadPlugin() {
  return {
    name: 'attention-lab:page-head',
    transformIndexHtml: {
      order: 'pre',
      handler: (html, ctx) => pageHead(html, path.basename(ctx.filename)),
    },
  };
}
