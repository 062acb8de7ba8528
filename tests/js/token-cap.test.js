// The status line of a figure that shows only the first tokens of a long sentence
// (web/src/widgets/shared/token-cap.js), written once for every such figure.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { capNotice, tokenStatus } from '../../web/src/widgets/shared/token-cap.js';
import { widgetFilesMatching } from './helpers.js';

describe('the token cap', () => {
  test('says where it cut, and nothing when every token is shown', () => {
    assert.equal(capNotice(11, 8), 'Showing the first 8 of 11 tokens.');
    assert.equal(capNotice(8, 8), '');
    assert.equal(capNotice(0, 8), '');
  });

  test('the status line prompts for an empty sentence', () => {
    assert.equal(tokenStatus(0, 8, 'Type a sentence.'), 'Type a sentence.');
    assert.equal(tokenStatus(3, 8, 'Type a sentence.'), '');
    assert.equal(tokenStatus(9, 8, 'Type a sentence.'), 'Showing the first 8 of 9 tokens.');
  });

  test('no widget folder words the cut itself', () => {
    assert.deepEqual(widgetFilesMatching(/`Showing the first/), []);
  });
});
