// The `translation` widget: the page's two English-to-German models (docs/translation.md) on the
// sentence the learner types, in one of three views (markup.js): `compare` puts both models' German
// side by side under Figure 2, their measured BLEU by English length; `steps` walks the attention
// model's decoder one German word at a time, with that step's scores and weights; `alignment` draws
// the attention model's weights as a German-by-English matrix. Props: { view, sentence, step (1-based,
// steps view), state }; state keeps the learner's sentence and step across mounts (and in the link).
//
// It loads the models itself, on mount, so that only the slides that translate download them.
// It is mounted before the engine has loaded (`early`): an alignment view whose sentence is
// recorded (record.js, recorded.json) draws the recording at once, and the live models then load
// once the page has (after-load.js), so the title slide shows its figure without waiting for them.
import { afterLoad } from '../../after-load.js';
import { VectorsUnavailable } from '../../text/vectors.js';
import {
  TranslatorsUnavailable,
  loadTranslationOnce,
  loadedTranslation,
} from '../../text/translation.js';
import { tokenize } from '../../text/tokenize.js';
import { EngineUnavailable, loadEngineOnce } from '../shared/engine-loader.js';
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { registerWidget } from '../shared/registry.js';
import { clearFigures, drawAlignment, drawCompare, drawSteps } from './figures.js';
import { MAX_STEP, SETTINGS } from './link-settings.js';
import { recordedAlignment } from './record.js';
import recordings from './recorded.json';
import { alignmentFactsText, modelFactsText, stepsOf } from './text.js';
import { buildTranslationParts } from './markup.js';
import './style.css';

/** The views by name, each with the sentence it opens on. */
export const VIEWS = Object.freeze({
  compare: 'Click the button to open the file.',
  steps: 'The document can not be printed.',
  alignment: 'Enter the name of the new file.',
});

const LOADING = 'Loading the two translation models (about 2.5 MB)\u2026';
const RECORDED =
  'The figure is recorded from the model; loading it (4.5 MB) to translate your own sentence\u2026';
const PROMPT = 'Type an English sentence to see the models translate it.';
const BROKEN = 'The models could not translate this text. Please reload the page to try again.';
const NOTHING =
  'The model ended its German at once, without a word: try a longer or more ordinary sentence.';

/**
 * @typedef {import('./markup.js').TranslationView} TranslationView
 * @typedef {import('./markup.js').TranslationParts} TranslationParts
 */

/**
 * @param {unknown} view
 * @returns {TranslationView} the named view, or `compare` for a name it does not know
 */
export function viewOf(view) {
  return typeof view === 'string' && Object.hasOwn(VIEWS, view)
    ? /** @type {TranslationView} */ (view)
    : 'compare';
}

/**
 * @param {unknown} step what a link or the slide gives
 * @returns {number} a whole step from 1 (the draw clamps it to the words written)
 */
export function stepOf(step) {
  const value = Number(step);
  return Number.isInteger(value) && value >= 1 && value <= MAX_STEP ? value : 1;
}

/** @returns {import('../shared/registry.js').Widget} */
function createTranslation() {
  let gone = false;
  /** @type {import('../../text/translation.js').Translators | undefined} */
  let models;
  return formWidget({
    build: (doc, props) => buildTranslationParts(doc, viewOf(props.view)),
    fill(parts, props, state) {
      const text = typeof state.sentence === 'string' ? state.sentence : undefined;
      const given = typeof props.sentence === 'string' ? props.sentence : undefined;
      parts.sentence.value = text ?? given ?? VIEWS[parts.view];
      if (parts.step) parts.step.value = String(stepOf(state.step ?? props.step));
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      if (parts.step) state.step = stepOf(parts.step.value);
    },
    draw(parts, engine, state) {
      models ??= engine ? loadedTranslation(engine) : undefined;
      if (models) draw(parts, models, state);
      else if (parts.view === 'alignment') drawRecorded(parts, state);
    },
    clear: clearFigures,
    wire(parts, context) {
      gone = false;
      // A click on a German word of the steps view chooses its step.
      const choose = (/** @type {Event} */ event) => {
        const target = event.target instanceof Element ? event.target.closest('.mt-word') : null;
        const step = target instanceof HTMLElement ? target.dataset.step : undefined;
        if (!step || !parts.step) return;
        parts.step.value = step;
        context.redraw();
        /** @type {HTMLElement | null} */ (
          parts.root.querySelector(`[data-step="${step}"]`)
        )?.focus();
      };
      parts.root.addEventListener('click', choose);
      const engine = context.engine();
      models = engine ? loadedTranslation(engine) : undefined;
      if (!models) {
        parts.root.dataset.state = 'loading';
        setLine(parts.status, LOADING);
        parts.status.classList.add('busy');
        // A recording on show (drawn as the mount ends, before this runs) can wait for the page
        // to load; anything else is wanted now.
        Promise.resolve()
          .then(() => (parts.root.dataset.state === 'recorded' ? afterLoad() : undefined))
          .then(() => engine ?? loadEngineOnce())
          .then((loaded) => loadTranslationOnce(loaded))
          .then(
            (loaded) => {
              models = loaded;
              if (!gone) context.draw();
            },
            (error) => {
              if (!gone) failed(parts, error);
            },
          );
      }
      return () => {
        gone = true;
        parts.root.removeEventListener('click', choose);
      };
    },
  });
}

/**
 * Translates the sentence and draws the view, or says why there is nothing to draw.
 * @param {TranslationParts} parts
 * @param {import('../../text/translation.js').Translators} models
 * @param {Record<string, any>} state
 */
function draw(parts, models, state) {
  parts.status.classList.remove('busy');
  const text = typeof state.sentence === 'string' ? state.sentence : '';
  if (tokenize(text).length === 0) {
    show(parts, 'empty', PROMPT, '');
    return;
  }
  try {
    const attention = models.attention.translate(text);
    if (parts.view === 'compare') {
      show(parts, 'drawn', '', '');
      drawCompare(parts, models, { attention, fixedVector: models.fixedVector.translate(text) });
      return;
    }
    if (attention.target.length === 0) {
      show(parts, 'empty', NOTHING, '');
      return;
    }
    show(parts, 'drawn', '', '');
    if (parts.view === 'alignment') {
      drawAlignment(parts, attention, {
        alignment: alignmentFactsText(models.attention.info),
        ...modelFactsText(models.attention.info, models.fixedVector.info),
      });
      return;
    }
    const written = stepsOf(attention);
    const steps = written.length;
    const step = Math.min(stepOf(state.step), steps);
    const slider = /** @type {HTMLInputElement} */ (parts.step);
    slider.max = String(steps);
    slider.value = String(step);
    slider.setAttribute('aria-valuetext', `step ${step} of ${steps}: ${written[step - 1].text}`);
    /** @type {HTMLElement} */ (parts.stepValue).textContent = `${step} of ${steps}`;
    drawSteps(parts, models, attention, step - 1);
  } catch (error) {
    console.error(error);
    show(parts, 'failed', '', BROKEN);
  }
}

/**
 * @param {Record<string, any>} state
 * @returns {ReturnType<typeof recordedAlignment>} the recording of the state's sentence
 */
function recordingOf(state) {
  return typeof state.sentence === 'string'
    ? recordedAlignment(recordings, state.sentence)
    : undefined;
}

/**
 * Before the models have loaded: the recording of the sentence, if there is one, under a line
 * that says so; else the loading line alone.
 * @param {TranslationParts} parts
 * @param {Record<string, any>} state
 */
function drawRecorded(parts, state) {
  const recorded = recordingOf(state);
  if (!recorded) {
    parts.root.dataset.state = 'loading';
    setLine(parts.pending, '');
    setLine(parts.status, LOADING);
    clearFigures(parts);
    return;
  }
  drawAlignment(parts, recorded.translation, recorded.facts);
  setLine(parts.error, '');
  // Said under the sentence, where the slide has room, so the figure shows as it will live.
  setLine(parts.status, '');
  setLine(parts.pending, RECORDED);
  parts.root.dataset.state = 'recorded';
}

/**
 * @param {TranslationParts} parts
 * @param {unknown} error
 */
function failed(parts, error) {
  const known =
    error instanceof TranslatorsUnavailable ||
    error instanceof VectorsUnavailable ||
    error instanceof EngineUnavailable;
  if (!known) console.error(error);
  parts.status.classList.remove('busy');
  show(parts, 'failed', '', known ? /** @type {Error} */ (error).message : BROKEN);
}

/**
 * Shows the status and alert lines, and the figure only when it is drawn.
 * @param {TranslationParts} parts
 * @param {'empty' | 'failed' | 'drawn'} what
 * @param {string} status
 * @param {string} alert
 */
function show(parts, what, status, alert) {
  setLine(parts.pending, '');
  setLine(parts.status, status);
  setLine(parts.error, alert);
  parts.root.dataset.state = what;
  if (what !== 'drawn') clearFigures(parts);
}

registerWidget('translation', createTranslation, { settings: SETTINGS, early: true });
