// The training figure's elements: Start / Pause / Resume (one button), Reset, the seed and the
// learning rate, the sample length (alignment only) and the progress bar with its speed, then the
// figure: title, what to watch, the reading line, the attention map (alignment) or every head on a
// probe phrase (language model), the loss chart, and the accuracy chart or the head-score charts
// (language model). Ids are unique per instance, so several can share a page.
import { buildReadout } from '../../views/heatmap/index.js';
import { LENGTHS, MAP_LENGTHS } from './experiments.js';
import { seedFieldHtml } from '../shared/seed.js';
import { RATE_RANGE } from './settings.js';
import { choicesHtml } from '../shared/choices.js';

let instances = 0;

/**
 * Builds the elements for one experiment (not yet in the page).
 * @param {Document} doc
 * @param {import('./experiments.js').Experiment} experiment
 */
export function buildTrainingParts(doc, experiment) {
  const id = `tr-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'tr split';
  root.dataset.experiment = experiment.key;
  const heads = experiment.kind === 'language-model';
  const lengths =
    experiment.map && !heads
      ? `<fieldset class="tr-lengths">
        <legend>Sample length for the map</legend>
        ${choicesHtml(
          `${id}-length`,
          MAP_LENGTHS.map((n) => [n, String(n)]),
          { row: 'tr-choices', numeric: true },
        )}
      </fieldset>`
      : '';
  const [low, high] = RATE_RANGE;
  const first = LENGTHS[0];
  const last = LENGTHS[LENGTHS.length - 1];
  // The language model's loss sits with the controls, under the progress bar: its figure needs
  // the other column for every head.
  const loss = `<p class="tr-chart-title">Loss (cross-entropy per ${experiment.lossUnit})</p>
        <div class="tr-loss"></div>`;
  root.innerHTML = `
    <div class="tr-controls split-controls">
      <div class="tr-row">
        <div class="tr-buttons">
          <button type="button" class="widget-button tr-go">Start</button>
          <button type="button" class="widget-button secondary tr-reset">Reset</button>
        </div>
        <div class="tr-field">
          ${seedFieldHtml(id, { input: 'tr-input tr-seed', label: 'tr-label', describedBy: `${id}-help` })}
        </div>
        <div class="tr-field">
          <label class="tr-label" for="${id}-rate">Learning rate</label>
          <input id="${id}-rate" class="widget-number tr-input tr-rate" type="number" inputmode="decimal"
            min="${low}" max="${high}" step="any" aria-describedby="${id}-help" />
        </div>
      </div>
      ${lengths}
      <div class="tr-progress-row">
        <progress class="tr-progress" max="${experiment.steps}" value="0"
          aria-label="Training progress" aria-describedby="${id}-count"></progress>
        <span id="${id}-count" class="tr-count"></span>
        <span class="tr-speed"></span>
      </div>
      <p id="${id}-help" class="help tr-help deck-hidden-wide">
        The seed draws the starting weights and the training sequences; the learning rate is the
        optimiser's step size (from ${low} to ${high}). Both hold from step 0: Reset to change
        them.
      </p>
      <p class="error tr-error" role="alert" hidden></p>
      <p class="visually-hidden tr-status" role="status"></p>
      ${heads ? loss : ''}
    </div>
    <div class="tr-output split-output">
      <figure class="tr-figure" aria-labelledby="${id}-title">
        <figcaption id="${id}-title" class="tr-title">${experiment.title}</figcaption>
        <p class="tr-watch">${experiment.watch}</p>
        <p class="tr-reading"></p>
        ${
          heads
            ? `<div class="tr-map tr-heads"></div><p class="tr-sample deck-hidden-wide"></p>
        <p class="tr-chart-title">Each head's score for its job: layer 1 the previous word (a job from 0.50), layer 2 induction (from 0.40)</p>
        <div class="tr-scores"></div>`
            : ''
        }
        ${experiment.map && !heads ? '<div class="tr-map"></div><p class="tr-sample deck-hidden-wide"></p>' : ''}
        ${heads ? '' : loss}
        ${
          experiment.accuracyChart
            ? `<p class="tr-chart-title">Accuracy against input length (${first} to ${last})</p>
        <div class="tr-accuracy"></div>`
            : ''
        }
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  // One read-out for every head's small heatmap, under them.
  const headsReadout = heads ? buildReadout(doc, `${id}-heads-readout`) : null;
  if (headsReadout) find('.tr-heads').after(headsReadout);
  return {
    root,
    go: /** @type {HTMLButtonElement} */ (find('.tr-go')),
    reset: /** @type {HTMLButtonElement} */ (find('.tr-reset')),
    seed: /** @type {HTMLInputElement} */ (find('.tr-seed')),
    rate: /** @type {HTMLInputElement} */ (find('.tr-rate')),
    lengths: /** @type {HTMLInputElement[]} */ (
      Array.from(root.querySelectorAll('.tr-lengths input'))
    ),
    progress: /** @type {HTMLProgressElement} */ (find('.tr-progress')),
    count: find('.tr-count'),
    speed: find('.tr-speed'),
    error: find('.tr-error'),
    status: find('.tr-status'),
    figure: find('.tr-figure'),
    reading: find('.tr-reading'),
    map: /** @type {HTMLElement | null} */ (find('.tr-map')),
    sample: /** @type {HTMLElement | null} */ (find('.tr-sample')),
    loss: find('.tr-loss'),
    accuracy: /** @type {HTMLElement | null} */ (find('.tr-accuracy')),
    scores: /** @type {HTMLElement | null} */ (find('.tr-scores')),
    headsReadout,
  };
}

/** @typedef {ReturnType<typeof buildTrainingParts>} TrainingParts */
