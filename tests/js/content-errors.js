// The check the content tests share: a broken lesson is refused with a ContentError that names the
// file and the field.
import assert from 'node:assert/strict';

import { ContentError } from '../../web/build/content.js';

/**
 * Asserts that `run` throws a ContentError about `file` and `field`, naming both in its message.
 * @param {() => unknown} run
 * @param {string} file
 * @param {string} field
 * @param {RegExp} problem
 */
export function assertContentError(run, file, field, problem) {
  assert.throws(run, (err) => {
    assert.ok(err instanceof ContentError, `expected a ContentError, got ${err}`);
    assert.equal(err.file, file);
    assert.equal(err.field, field);
    assert.ok(err.message.startsWith(`${file}: ${field} `), err.message);
    assert.match(err.message, problem);
    return true;
  });
}
