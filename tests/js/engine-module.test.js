// The engine's generated JavaScript (web/src/engine/generated/attention-core.mjs) builds no code
// from strings at run time. The engine is linked with -sDYNAMIC_EXECUTION=0 (CMakeLists.txt), so
// embind's call wrappers are plain closures and the pages' Content-Security-Policy can leave out
// 'unsafe-eval' (tests/e2e/csp.test.js checks the policies themselves).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './helpers.js';

const MODULE = path.join(ROOT, 'web/src/engine/generated/attention-core.mjs');

/** What compiles a string as code: the Function constructor (with or without new) and eval. */
const CODE_FROM_STRINGS = [
  /\bnew\s+Function\b/g,
  /(?<![\w$.])Function\s*\(/g,
  /(?<![\w$.])eval\s*\(/g,
  /new_\(\s*Function\b/g,
];

test('the generated engine module never compiles a string as code', () => {
  const source = readFileSync(MODULE, 'utf8');
  const found = CODE_FROM_STRINGS.flatMap((pattern) =>
    Array.from(source.matchAll(pattern), (match) =>
      source.slice(Math.max(0, match.index - 40), match.index + 40),
    ),
  );
  assert.deepEqual(found, [], 'rebuild the engine with -sDYNAMIC_EXECUTION=0');
});
