// The speaker view's plugin comes after the first slide (web/src/deck/speaker-notes.js): S works
// before it has loaded and after, it is fetched once, and a failed download leaves S harmless.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { offerSpeakerNotes } from '../../web/src/deck/speaker-notes.js';

/** A deck that records what the plugin and the page do to it. */
function fakeDeck() {
  const deck = {
    bindings: new Map(),
    plugins: new Map(),
    opened: 0,
    addKeyBinding(binding, callback) {
      deck.bindings.set(binding.keyCode, callback);
    },
    registerPlugin(factory) {
      const plugin = factory();
      deck.plugins.set(plugin.id, plugin);
      plugin.init(deck);
    },
    getPlugin(id) {
      return deck.plugins.get(id);
    },
  };
  return deck;
}

/** The plugin's shape: on init it binds S to its own opener. */
function fakeNotes(deck) {
  return () => ({
    id: 'notes',
    init: (d) => d.addKeyBinding({ keyCode: 83 }, () => deck.opened++),
    open: () => deck.opened++,
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('S before the plugin has loaded fetches it and opens the speaker view', async () => {
  const deck = fakeDeck();
  let loads = 0;
  const load = async () => (loads++, { default: fakeNotes(deck) });
  offerSpeakerNotes(deck, new Promise(() => {}), { idle: () => {}, load });
  assert.equal(loads, 0, 'nothing is fetched before the page has loaded or S is pressed');
  deck.bindings.get(83)();
  deck.bindings.get(83)();
  await settle();
  assert.equal(loads, 1, 'fetched once');
  assert.equal(deck.opened, 2);
  deck.bindings.get(83)();
  assert.equal(deck.opened, 3, 'then S is the plugin’s own binding');
});

test('once the page has loaded, the plugin is fetched when the browser is idle', async () => {
  const deck = fakeDeck();
  const idleTasks = [];
  let loads = 0;
  const load = async () => (loads++, { default: fakeNotes(deck) });
  offerSpeakerNotes(deck, Promise.reject(new Error('a page load failed')), {
    idle: (task) => idleTasks.push(task),
    load,
  });
  await settle();
  assert.equal(idleTasks.length, 1, 'waits for idle time even when a page load failed');
  assert.equal(loads, 0);
  idleTasks[0]();
  await settle();
  assert.equal(loads, 1);
  assert.ok(deck.plugins.has('notes'));
  assert.equal(deck.opened, 0, 'registering does not open the view');
});

test('a failed download leaves S doing nothing, without an error', async () => {
  const deck = fakeDeck();
  const load = () => Promise.reject(new Error('offline'));
  offerSpeakerNotes(deck, new Promise(() => {}), { idle: () => {}, load });
  deck.bindings.get(83)();
  await settle();
  assert.equal(deck.opened, 0);
  assert.equal(deck.plugins.size, 0);
});
