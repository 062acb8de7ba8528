// Values nobody would type into a figure's address, for the tests that give them to every setting
// a widget declares (link-settings.test.js) and load them in the browser
// (tests/e2e/hostile-address.test.js), and the names of every option of reveal.js, which the deck
// must never take from its address. A script in a value sets `window.__hostile`; a test checks it
// stays unset.
import { readFileSync } from 'node:fs';

/** What a value's script sets, were it ever run. */
export const HOSTILE_MARK = '__hostile';

/**
 * One value per kind the issue names, each as the text a query parameter would carry.
 * @type {{ kind: string, text: string }[]}
 */
export const HOSTILE_VALUES = [
  { kind: 'NaN', text: 'NaN' },
  { kind: 'Infinity', text: '-Infinity' },
  { kind: 'huge number', text: '1e308' },
  { kind: 'negative size', text: '-4096' },
  { kind: 'JSON array', text: '[1e308,null,"x",[[]],{"a":1}]' },
  { kind: 'JSON object', text: '{"__proto__":{"polluted":1},"length":1e9,"0":"x"}' },
  {
    kind: 'markup',
    text: `<img src=x onerror="window.${HOSTILE_MARK}=1"><svg onload="window.${HOSTILE_MARK}=1">`,
  },
  { kind: 'quoted script', text: `"'><script>window.${HOSTILE_MARK}=1</script>` },
  { kind: 'lone surrogates', text: 'cat \ud800 dog \udfff' },
  { kind: 'control characters', text: 'cat\u0000dog\u0007\u001b[31m\u007f\u0085\r\n' },
  { kind: 'a few thousand characters', text: 'attention '.repeat(300) },
  { kind: 'empty', text: '' },
];

/**
 * The names of reveal.js's options, read from its default configuration.
 * @returns {string[]}
 */
export function revealOptionNames() {
  const source = readFileSync(
    new URL('../../node_modules/reveal.js/js/config.ts', import.meta.url),
    'utf8',
  );
  const start = source.indexOf('const defaultConfig');
  const body = source.slice(start, source.indexOf('\n};', start));
  const names = [...body.matchAll(/^\t(\w+):/gm)].map((match) => match[1]);
  if (names.length < 50) throw new Error(`read only ${names.length} options of reveal.js`);
  return names;
}

/**
 * The parameters a link to a figure could hold besides its settings that reveal.js or its notes
 * plugin would read from the address: every option, and the plugin's own `notes`.
 * @returns {string[]}
 */
export function revealParams() {
  return [...revealOptionNames(), 'notes'];
}
