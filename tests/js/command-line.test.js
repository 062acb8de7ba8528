// The native tool attn_train (tools/train/) trains every model, each reading its flags through one
// parser (tools/command_line.hpp): a bad value, an unknown flag or a missing value ends the tool
// with exit code 2, a message naming the flag, and a usage line made from the model's own
// declarations; an unknown or missing model name ends it the same way.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { ROOT } from './helpers.js';

/**
 * @param {string} model
 * @param {string[]} args
 */
function run(model, args) {
  const tool = join(ROOT, 'build/native/attn_train');
  const result = spawnSync(tool, [model, ...args].filter(Boolean), { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const MODELS = ['reversal', 'language-model', 'translation', 'transformer'];

describe('attn_train rejects a bad command line before it reads or trains', () => {
  for (const model of MODELS) {
    const tool = `attn_train ${model}`;
    test(`${tool}: each kind of mistake`, () => {
      const cases = [
        { args: ['--steps', 'ten'], message: "--steps needs a number, got 'ten'" },
        { args: ['--steps', '2.5'], message: "--steps needs a whole number, got '2.5'" },
        { args: ['--seed', '-1'], message: '--seed must be from 0 to' },
        { args: ['--lr', 'nan'], message: "--lr needs a number, got 'nan'" },
        { args: ['--no-such-flag', '1'], message: 'unknown flag --no-such-flag' },
        { args: ['--steps'], message: '--steps needs a value' },
      ];
      for (const { args, message } of cases) {
        const { status, stdout, stderr } = run(model, args);
        assert.equal(status, 2, `${tool} ${args.join(' ')} exits with 2`);
        assert.equal(stdout, '', `${tool} ${args.join(' ')} prints nothing on stdout`);
        const [first, usage] = stderr.split('\n');
        assert.equal(first.startsWith(`${tool}: `), true, first);
        assert.ok(first.includes(message), `${first} says ${message}`);
        assert.ok(usage.startsWith(`usage: ${tool} [`), usage);
        assert.ok(usage.includes('[--steps N]') && usage.includes('[--seed N]'), usage);
      }
    });
  }

  test('a model it does not know, or none, is refused with the list of models', () => {
    for (const model of ['gpt', '']) {
      const { status, stdout, stderr } = run(model, []);
      assert.equal(status, 2);
      assert.equal(stdout, '');
      assert.match(
        stderr,
        /usage: attn_train reversal\|language-model\|translation\|transformer \[flags\]/,
      );
    }
    assert.match(run('gpt', []).stderr, /unknown model 'gpt'/);
  });

  test('a choice names its choices, and an integer its range', () => {
    const scoring = run('reversal', ['--scoring', 'cosine']);
    assert.equal(scoring.status, 2);
    assert.match(scoring.stderr, /--scoring is additive\|dot\|scaled_dot, got 'cosine'/);
    const bridge = run('translation', ['--bridge', 'none']);
    assert.equal(bridge.status, 2);
    assert.match(bridge.stderr, /--bridge is both\|attention\|fixed-vector, got 'none'/);
    const norm = run('transformer', ['--norm', 'middle']);
    assert.equal(norm.status, 2);
    assert.match(norm.stderr, /--norm is pre\|post, got 'middle'/);
    const width = run('reversal', ['--d-model', '99999999999']);
    assert.equal(width.status, 2);
    assert.match(width.stderr, /--d-model must be from -2147483648 to 2147483647/);
  });

  test('a good command line gets past the parser', () => {
    const { status, stdout } = run('reversal', ['--steps', '2', '--eval-samples', '2']);
    assert.equal(status, 0);
    assert.equal(stdout.trim().split('\n').length, 3, 'two losses and one evaluation');
  });
});
