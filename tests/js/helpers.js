// Shared helpers for the engine tests: golden fixtures, approximate comparison, small array tools.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root, for paths to fixtures and native tools. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Tolerance for float32 results against float64 references: |got - want| <= abs + rel * |want|.
 * float32 keeps 24 bits (relative rounding 6e-8); a dot product of a few dozen terms, an exp and a
 * normalisation lose a few of them, so results carry relative errors around 1e-6. The relative
 * 1e-4 leaves a wide margin for that while still catching any wrong formula, transposed weight,
 * missing scale or misplaced mask (those change results by percent). The absolute 1e-5 covers
 * values near 0, where a relative bound alone is meaningless (e.g. a weight of 1e-9 or an output
 * that cancels to 0).
 */
export const FLOAT32_TOLERANCE = Object.freeze({ abs: 1e-5, rel: 1e-4 });

/**
 * Reads tests/fixtures/<name>.json, turning the string "-Infinity" (JSON has no infinities) back
 * into -Infinity.
 * @param {string} name fixture file name without extension, e.g. 'attention'
 * @returns {{ about: string, cases: Array<{ name: string, input: object, expected: object }> }}
 */
export function loadFixture(name) {
  const text = readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), 'utf8');
  return JSON.parse(text, (key, value) => (value === '-Infinity' ? -Infinity : value));
}

/**
 * Asserts that two arrays of numbers agree within a tolerance. Infinities must match exactly and
 * NaN never matches. The failure message names the first mismatching index, both values and how
 * many entries disagree.
 * @param {ArrayLike<number>} actual
 * @param {ArrayLike<number>} expected
 * @param {string} what what is being compared, for the message
 * @param {{ abs: number, rel: number }} [tolerance]
 */
export function assertClose(actual, expected, what, tolerance = FLOAT32_TOLERANCE) {
  assert.ok(ArrayBuffer.isView(actual) || Array.isArray(actual), `${what}: expected an array`);
  assert.equal(
    actual.length,
    expected.length,
    `${what}: length ${actual.length}, want ${expected.length}`,
  );
  let first = -1;
  let count = 0;
  for (let i = 0; i < expected.length; i++) {
    const got = actual[i];
    const want = expected[i];
    const ok = Number.isFinite(want)
      ? Math.abs(got - want) <= tolerance.abs + tolerance.rel * Math.abs(want)
      : got === want;
    if (!ok) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (first >= 0) {
    assert.fail(
      `${what}: ${count} of ${expected.length} entries differ; first at index ${first}: ` +
        `got ${actual[first]}, want ${expected[first]} ` +
        `(tolerance abs ${tolerance.abs} + rel ${tolerance.rel})`,
    );
  }
}

/**
 * The sums of the rows of a row-major matrix.
 * @param {ArrayLike<number>} m
 * @param {number} rows
 * @param {number} cols
 * @returns {number[]}
 */
export function rowSums(m, rows, cols) {
  const sums = [];
  for (let i = 0; i < rows; i++) {
    let total = 0;
    for (let j = 0; j < cols; j++) total += m[i * cols + j];
    sums.push(total);
  }
  return sums;
}

/**
 * Reorders the rows of a row-major matrix: row i of the result is row perm[i] of m.
 * @param {ArrayLike<number>} m
 * @param {number[]} perm
 * @param {number} cols
 * @returns {Float32Array}
 */
export function permuteRows(m, perm, cols) {
  const source = Float32Array.from(m);
  const out = new Float32Array(perm.length * cols);
  perm.forEach((from, i) => out.set(source.subarray(from * cols, (from + 1) * cols), i * cols));
  return out;
}

/**
 * A seeded permutation of 0..n-1 (Fisher-Yates over a small linear congruential generator), so
 * tests reorder tokens the same way on every run.
 * @param {number} n
 * @param {number} seed
 * @returns {number[]}
 */
export function seededPermutation(n, seed) {
  const perm = Array.from({ length: n }, (_, i) => i);
  let state = seed >>> 0;
  for (let i = n - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  return perm;
}

/**
 * Asserts that every entry is a finite number (no NaN, no infinity).
 * @param {ArrayLike<number>} values
 * @param {string} what
 */
export function assertAllFinite(values, what) {
  const bad = Array.prototype.findIndex.call(values, (x) => !Number.isFinite(x));
  assert.equal(bad, -1, `${what}: entry ${bad} is ${values[bad]}`);
}

/**
 * Random attention inputs: q (nq x dk), k (nk x dk), v (nk x dv), from distinct seeds.
 * @param {import('../../web/src/engine/index.js').Engine} engine
 * @param {{ nq: number, nk: number, dk: number, dv: number }} sizes
 * @param {number} seed
 */
export function randomQkv(engine, { nq, nk, dk, dv }, seed) {
  return {
    q: engine.unitNormal(nq, dk, seed),
    k: engine.unitNormal(nk, dk, seed + 1),
    v: engine.unitNormal(nk, dv, seed + 2),
    nq,
    nk,
    dk,
    dv,
  };
}

/**
 * The widget folders' own JavaScript files (web/src/widgets/<name>/*.js, not shared/) whose text
 * matches `pattern`, as "<name>/<file>": for tests that hold a piece to one shared module.
 * @param {RegExp} pattern
 * @returns {string[]}
 */
export function widgetFilesMatching(pattern) {
  const widgets = join(ROOT, 'web/src/widgets');
  const found = [];
  for (const folder of readdirSync(widgets)) {
    if (folder === 'shared' || folder.includes('.')) continue;
    for (const file of readdirSync(join(widgets, folder))) {
      if (file.endsWith('.js') && pattern.test(readFileSync(join(widgets, folder, file), 'utf8'))) {
        found.push(`${folder}/${file}`);
      }
    }
  }
  return found;
}

/**
 * A copy of a report with the field at `path` (dots and [index]) set to `value`, or removed when
 * `value` is undefined.
 * @param {any} report
 * @param {string} path
 * @param {unknown} value
 */
export function reportWith(report, path, value) {
  const copy = structuredClone(report);
  const names = path.split(/\.|\[(\d+)\]/).filter(Boolean);
  const last = /** @type {string} */ (names.pop());
  const parent = names.reduce((object, name) => object[name], copy);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}
