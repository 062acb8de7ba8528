// The query-key-value widget's elements: the sentence, the projection kind, the seed and d_k, then
// the figure: X beside the projections, Q, K and V under them, the scores Q K^T with the read-out
// (which writes out the dot product of the active score) and the legends, then the tables. Ids
// are unique per instance.
import { buildReadout } from '../../views/heatmap/index.js';
import { seedFieldHtml } from '../shared/seed.js';
import { DK_CHOICES } from './math.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { choicesHtml } from '../shared/choices.js';

let instances = 0;

/** The read-out's words while no cell is pointed at or focused. */
const HINT =
  'Point at a cell, or Tab into a grid and use the arrow keys, to read it; a score also shows ' +
  'its dot product.';

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {number} maxTokens
 */
export function buildQkvParts(doc, maxTokens) {
  const id = `qkv-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'qkv split widget-columns';
  root.innerHTML = `
    <div class="qkv-controls split-controls sentence-areas">
      ${sentenceFieldHtml(id, { label: 'Sentence', input: 'hm-sentence qkv-sentence', helpClass: 'qkv-help', help: `Words and punctuation become tokens (up to ${maxTokens}), each a word vector of 100 numbers.` })}
      <p class="status qkv-status" role="status" hidden></p>
      <div class="qkv-row">
        <fieldset class="qkv-group qkv-kinds" aria-describedby="${id}-kind-help">
          <legend>Projections</legend>
          ${choicesHtml(
            `${id}-kind`,
            [
              ['identity', 'Identity'],
              ['random', 'Seeded random'],
            ],
            { row: 'qkv-choices', choice: 'qkv-choice' },
          )}
        </fieldset>
        <div class="qkv-group qkv-seed-field">
          ${seedFieldHtml(id, { input: 'qkv-seed', label: 'qkv-seed-label' })}
        </div>
        <fieldset class="qkv-group qkv-dks">
          <legend><var>d</var><sub>k</sub></legend>
          ${choicesHtml(
            `${id}-dk`,
            DK_CHOICES.map((dk) => [dk, String(dk)]),
            { row: 'qkv-choices', choice: 'qkv-choice', numeric: true },
          )}
        </fieldset>
      </div>
      <p id="${id}-kind-help" class="help qkv-help deck-hidden">
        Identity keeps every vector as it is, so Q, K and V all equal X and d<sub>k</sub> = 100.
        Seeded random draws W<sub>Q</sub>, W<sub>K</sub> and W<sub>V</sub> (100 by
        d<sub>k</sub>) with Glorot-uniform numbers from the seed and the two after it.
      </p>
    </div>
    <div class="qkv-output split-output">
      <p class="error qkv-error" role="alert" hidden></p>
      <div class="qkv-result" hidden>
        <div class="qkv-inputs"></div>
        <div class="qkv-projected"></div>
        <div class="qkv-scores-row">
          <figure class="qkv-tile qkv-scores-tile" aria-labelledby="${id}-scores-name">
            <figcaption id="${id}-scores-name" class="qkv-name"></figcaption>
            <div class="qkv-map qkv-scores"></div>
          </figure>
          <div class="qkv-side">
            <div class="qkv-legends"></div>
          </div>
        </div>
        <p class="note qkv-unknown" hidden></p>
        <div class="qkv-tables"></div>
      </div>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = buildReadout(doc, `${id}-readout`, 'value');
  readout.dataset.hint = HINT;
  readout.textContent = HINT;
  readout.classList.add('qkv-readout');
  find('.qkv-side').prepend(readout);
  return {
    id,
    root,
    sentence: find('.qkv-sentence'),
    kinds: find('.qkv-kinds'),
    seed: find('.qkv-seed'),
    seedField: find('.qkv-seed-field'),
    dks: find('.qkv-dks'),
    status: find('.qkv-status'),
    error: find('.qkv-error'),
    result: find('.qkv-result'),
    inputs: find('.qkv-inputs'),
    projected: find('.qkv-projected'),
    scoresName: find(`#${id}-scores-name`),
    scores: find('.qkv-scores'),
    legends: find('.qkv-legends'),
    readout,
    unknown: find('.qkv-unknown'),
    tables: find('.qkv-tables'),
  };
}

/** @typedef {ReturnType<typeof buildQkvParts>} QkvParts */

/**
 * One named matrix: a caption with its name and shape, and the element its heatmap draws into.
 * @param {Document} doc
 * @param {string} className e.g. 'qkv-q'
 * @returns {{ tile: HTMLElement, name: HTMLElement, map: HTMLElement }}
 */
export function buildTile(doc, className) {
  const tile = doc.createElement('figure');
  tile.className = `qkv-tile ${className}`;
  const name = doc.createElement('figcaption');
  name.className = 'qkv-name';
  const map = doc.createElement('div');
  map.className = 'qkv-map';
  tile.append(name, map);
  return { tile, name, map };
}

/**
 * A piece of a matrix's name: its text, set as a subscript or superscript or neither.
 * @typedef {[string, ('sub' | 'sup')?]} NamePiece
 */

/**
 * Writes a matrix's name and shape into its caption, e.g. W<sub>Q</sub> 100 × 8.
 * @param {HTMLElement} caption
 * @param {NamePiece[][]} names one or more names of the same matrix, joined by ' = '
 * @param {number} rows
 * @param {number} cols
 */
export function setName(caption, names, rows, cols) {
  const doc = caption.ownerDocument;
  const symbol = doc.createElement('span');
  symbol.className = 'qkv-symbol';
  names.forEach((pieces, k) => {
    if (k > 0) symbol.append(doc.createTextNode(' = '));
    for (const [text, kind] of pieces) {
      if (!kind) {
        symbol.append(doc.createTextNode(text));
        continue;
      }
      const script = doc.createElement(kind);
      script.textContent = text;
      symbol.append(script);
    }
  });
  const shape = doc.createElement('span');
  shape.className = 'qkv-shape';
  shape.textContent = `${rows} \u00d7 ${cols}`;
  caption.replaceChildren(symbol, doc.createTextNode(' '), shape);
}
