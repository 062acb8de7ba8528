// The self-attention-pair widget's elements: two sentences, each with the word to follow and the
// bars of that word's weights, then how alike the word's vectors are in the two sentences; and the
// cost panel (cost-markup.js). Ids are unique per instance, so several can share a page.
import { buildCostParts } from './cost-markup.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/** The two sentences' names, as the figure writes them. */
export const SIDES = /** @type {const} */ (['A', 'B']);

/**
 * @param {string} id
 * @param {string} name 'A' or 'B'
 */
function sideHtml(id, name) {
  const at = `${id}-${name.toLowerCase()}`;
  return `
    <div class="sap-side" data-side="${name}">
      <div class="sap-inputs">
        <label class="sap-label" for="${at}-sentence">Sentence ${name}</label>
        <input id="${at}-sentence" class="widget-input sap-sentence" name="sentence-${name}"
          type="text" spellcheck="false" autocomplete="off" autocapitalize="off"
          aria-describedby="${id}-help" />
        <label class="sap-label sap-word-label" for="${at}-word">Word</label>
        <select id="${at}-word" class="widget-input sap-word" name="word-${name}"></select>
      </div>
      ${messageLinesHtml('sap')}
      <figure class="sap-figure" aria-labelledby="${at}-title" hidden>
        <figcaption id="${at}-title" class="sap-title deck-hidden"></figcaption>
        <div class="sap-bars"></div>
        <p class="note sap-unknown" hidden></p>
      </figure>
    </div>`;
}

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {number} maxTokens
 */
export function buildPairParts(doc, maxTokens) {
  const id = `sap-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'sap split';
  root.innerHTML = `
    <div class="sap-pair split-output">
      <p id="${id}-help" class="help sap-help deck-hidden">
        Words and punctuation become tokens (up to ${maxTokens} per sentence); each token is a
        pre-trained word vector. Choose the word whose row of attention weights to draw. Nothing
        is learned here (Q = K = V = the word vectors), so a word looks mostly at itself; the rest
        of its weight follows its neighbours, and that is what moves its output.
      </p>
      ${SIDES.map((name) => sideHtml(id, name)).join('')}
      <div class="sap-compare" aria-live="polite"></div>
    </div>`;
  const find = (selector, scope = root) => /** @type {any} */ (scope.querySelector(selector));
  const sides = SIDES.map((name) => {
    const side = find(`.sap-side[data-side="${name}"]`);
    return {
      name,
      sentence: /** @type {HTMLInputElement} */ (find('.sap-sentence', side)),
      word: /** @type {HTMLSelectElement} */ (find('.sap-word', side)),
      status: /** @type {HTMLElement} */ (find('.sap-status', side)),
      error: /** @type {HTMLElement} */ (find('.sap-error', side)),
      figure: /** @type {HTMLElement} */ (find('.sap-figure', side)),
      title: /** @type {HTMLElement} */ (find('.sap-title', side)),
      bars: /** @type {HTMLElement} */ (find('.sap-bars', side)),
      unknown: /** @type {HTMLElement} */ (find('.sap-unknown', side)),
    };
  });
  const cost = buildCostParts(doc, id);
  root.append(cost.root);
  return { root, sides, compare: /** @type {HTMLElement} */ (find('.sap-compare')), cost };
}

/** @typedef {ReturnType<typeof buildPairParts>} PairParts */
/** @typedef {PairParts['sides'][number]} SideParts */

/**
 * Fills a side's word menu with its tokens (a repeated token gets its count, "the #2") and
 * selects one.
 * @param {SideParts} side
 * @param {string[]} tokens
 * @param {number} selected an index into tokens, or -1 for an empty menu
 */
export function setWordChoices(side, tokens, selected) {
  const doc = side.word.ownerDocument;
  const seen = new Map();
  const options = tokens.map((token, i) => {
    const count = (seen.get(token) ?? 0) + 1;
    seen.set(token, count);
    const repeated = tokens.indexOf(token, tokens.indexOf(token) + 1) >= 0;
    const option = doc.createElement('option');
    option.value = String(i);
    option.dataset.token = token;
    option.textContent = repeated ? `${token} #${count}` : token;
    return option;
  });
  side.word.replaceChildren(...options);
  side.word.disabled = tokens.length === 0;
  if (selected >= 0) side.word.value = String(selected);
}
