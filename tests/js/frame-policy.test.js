// Who may frame the lesson's pages: the embed page any site, every other page (the deck at the
// folder's own address too) and every other response only the lesson itself; the header holds
// frame-ancestors alone, as it is combined with each page's own <meta> policy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { framePolicy } from '../../web/build/vite-plugin-frame-policy.js';

const ANYONE = 'frame-ancestors *';
const SELF = "frame-ancestors 'self'";

test('the embed page may be framed by any site, with or without its settings', () => {
  assert.equal(framePolicy('/embed.html'), ANYONE);
  assert.equal(framePolicy('/embed.html?figure=why-scale&dims=64'), ANYONE);
  assert.equal(framePolicy('/lesson/embed.html?figure=title#x'), ANYONE);
  assert.equal(framePolicy('/embed'), ANYONE);
  assert.equal(framePolicy('/%65mbed.html'), ANYONE, 'an escaped name is the same page');
});

test('every other page, and the folder itself, only by the lesson', () => {
  for (const path of [
    '/',
    '/index.html',
    '/index.html?figure=embed.html#/title',
    '/article.html',
    '/practice.html',
    '/lessons.html',
    '/embed.html/',
    '/embed.htm',
    '/not-embed.html',
    '/embed.html.bak',
    '/assets/embed-1234abcd.js',
    '/%E0%A4%A.html',
  ]) {
    assert.equal(framePolicy(path), SELF, path);
  }
});

test('the header says frame-ancestors and nothing else', () => {
  for (const path of ['/', '/embed.html']) {
    assert.match(framePolicy(path), /^frame-ancestors [^;,]+$/);
  }
});
