// What a figure takes from outside the page: every widget declares the settings a link or an LMS
// may give it (its folder's link-settings.js), and every value that arrives is checked against
// that declaration. Here every hostile value goes to every declared setting, as a link's text and
// as a value an LMS could hand back, and what comes out must be a value the setting allows, or
// nothing. The cases come from the declarations: a new setting is covered without editing this
// file, and a widget that declares nothing fails the first test.
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { HOSTILE_VALUES, revealParams } from './hostile-values.js';

register('./page-modules.js', import.meta.url);
const { settingsOf, widgetNames } = await import('../../web/src/widgets/shared/registry.js');
await import('../../web/src/widgets/index.js');
const { RESERVED, linkSettings, settingsFromUrl, urlWithSettings } =
  await import('../../web/src/share/figure-link.js');
const { acceptSettings } = await import('../../web/src/widgets/shared/link-settings.js');

const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
const PAGE = 'http://127.0.0.1:5173/index.html#/title';

/** @typedef {import('../../web/src/widgets/shared/link-settings.js').SettingKind} SettingKind */

/** Every declared setting: [widget, name, kind]. */
const declared = widgetNames().flatMap((type) =>
  Object.entries(settingsOf(type) ?? {}).map(([name, kind]) => [type, name, kind]),
);

/**
 * Whether `value` is one the setting allows, checked from its declared rules, not by `accept`.
 * @param {SettingKind} kind
 * @param {unknown} value
 * @returns {boolean}
 */
function allowed(kind, value) {
  const rules = /** @type {any} */ (kind.rules);
  switch (kind.kind) {
    case 'text':
      return (
        typeof value === 'string' &&
        value.length <= rules.max &&
        value.isWellFormed() &&
        !/\p{Cc}/u.test(value) &&
        (!rules.pattern || rules.pattern.test(value))
      );
    case 'integer':
      return Number.isSafeInteger(value) && value >= rules.min && value <= rules.max;
    case 'number':
      return Number.isFinite(value) && value >= rules.min && value <= rules.max;
    case 'flag':
      return typeof value === 'boolean';
    case 'choice':
      return rules.choices.includes(value);
    case 'list':
      return (
        Array.isArray(value) &&
        value.length >= rules.min &&
        value.length <= rules.max &&
        value.every((item) => allowed(rules.item, item))
      );
    case 'record':
      return (
        value !== null &&
        typeof value === 'object' &&
        Object.getPrototypeOf(value) === Object.prototype &&
        Object.entries(value).every(
          ([name, field]) =>
            Object.hasOwn(rules.fields, name) && allowed(rules.fields[name], field),
        )
      );
    default:
      return false;
  }
}

/**
 * A value the setting allows, for the round trip through a link.
 * @param {SettingKind} kind
 * @returns {unknown}
 */
function sample(kind) {
  const rules = /** @type {any} */ (kind.rules);
  switch (kind.kind) {
    case 'text':
      return rules.pattern ? '1.2' : 'The "cat" & <the> mat, 42';
    case 'integer':
    case 'number':
      return rules.max;
    case 'flag':
      return true;
    case 'choice':
      return rules.choices.at(-1);
    case 'list':
      return Array.from({ length: Math.max(1, rules.min) }, () => sample(rules.item));
    case 'record':
      return Object.fromEntries(Object.entries(rules.fields).map(([n, k]) => [n, sample(k)]));
    default:
      return undefined;
  }
}

describe('what a figure accepts from outside', () => {
  test('every registered widget declares the settings a link may set', () => {
    const undeclared = widgetNames().filter((type) => settingsOf(type) === undefined);
    assert.deepEqual(
      undeclared,
      [],
      'declare them in the widget folder’s link-settings.js and pass them to registerWidget',
    );
  });

  test('no setting takes a name the pages keep for themselves', () => {
    const clashes = declared.filter(([, name]) => RESERVED.includes(name));
    assert.deepEqual(clashes, []);
  });

  test('every hostile value, to every setting, comes out allowed or not at all', () => {
    const texts = [...HOSTILE_VALUES.map((value) => value.text), '__proto__', 'constructor'];
    const values = [
      ...texts,
      ...texts.map((text) => {
        try {
          return JSON.parse(text);
        } catch {
          return undefined;
        }
      }),
      NaN,
      Infinity,
      -0,
      1e308,
      -1,
      null,
      undefined,
      true,
      {},
      [],
      [[[]]],
      { toString: () => 'x' },
      Object.create(null),
      Symbol('x'),
      10n,
      () => 1,
    ];
    const wrong = [];
    for (const [type, name, kind] of declared) {
      for (const value of values) {
        let out;
        try {
          out = kind.accept(value);
        } catch (error) {
          wrong.push(`${type}.${name} threw on ${String(value)}: ${error}`);
          continue;
        }
        if (out !== undefined && !allowed(kind, out)) {
          wrong.push(`${type}.${name} took ${String(value)} as ${JSON.stringify(out)}`);
        }
        if (out !== undefined) assert.deepEqual(kind.accept(out), out, `${type}.${name} again`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  test('a link with every hostile value gives each figure only what it allows', () => {
    const names = [...new Set([...declared.map(([, name]) => name), ...revealParams()])];
    for (const [index] of HOSTILE_VALUES.entries()) {
      const params = new URLSearchParams({ figure: 'title' });
      names.forEach((name, n) => {
        params.set(name, HOSTILE_VALUES[(index + n) % HOSTILE_VALUES.length].text);
      });
      params.append('__proto__', '{"polluted":1}');
      const url = `http://127.0.0.1/index.html?${params}#/title`;
      for (const type of widgetNames()) {
        const declaration = settingsOf(type) ?? {};
        const settings = settingsFromUrl(url, 'title', type);
        assert.equal(Object.getPrototypeOf(settings), Object.prototype);
        for (const [name, value] of Object.entries(settings)) {
          assert.ok(Object.hasOwn(declaration, name), `${type} takes no ${name}`);
          assert.ok(allowed(declaration[name], value), `${type}.${name}: ${value}`);
        }
      }
    }
    assert.equal(/** @type {any} */ ({}).polluted, undefined, 'no prototype polluted');
  });

  test('an allowed value of every setting comes back from a link as it went in', () => {
    for (const type of widgetNames()) {
      const declaration = settingsOf(type) ?? {};
      const settings = Object.fromEntries(
        Object.entries(declaration).map(([name, kind]) => [name, sample(kind)]),
      );
      const url = urlWithSettings(PAGE, 'title', linkSettings(type, settings));
      assert.deepEqual(settingsFromUrl(url, 'title', type), settings, type);
    }
  });

  test('the slides’ own settings are ones their figures accept', () => {
    for (const slide of lesson.slides) {
      if (!slide.widget) continue;
      for (const view of [slide.widget, ...(slide.widget.also ?? [])]) {
        const declaration = settingsOf(view.type) ?? {};
        const props = /** @type {Record<string, unknown>} */ (view.props ?? {});
        const named = Object.fromEntries(
          Object.entries(props).filter(([name]) => Object.hasOwn(declaration, name)),
        );
        assert.deepEqual(acceptSettings(declaration, named), named, `${slide.id}: ${view.type}`);
      }
    }
  });

  test('state a widget keeps for itself stays out of its link', () => {
    const state = { sentences: ['a', 'b'], cost: { sizes: [1], times: [2] }, chosen: [{}, {}] };
    assert.deepEqual(linkSettings('self-attention-pair', state), {
      sentences: ['a', 'b'],
      chosen: [{}, {}],
    });
    assert.deepEqual(linkSettings('knowledge-check', { session: { answers: [1] } }), {});
    assert.deepEqual(linkSettings('no-such-widget', { sentence: 'x' }), {});
  });
});
