// The page controller: sentence -> tokens -> placeholder vectors -> attention (WebAssembly engine)
// -> heatmap. It is the only module that talks to the engine.
import { tokenize } from './text/tokenize.js';
import { EMBED_DIM, embedTokens } from './text/embed.js';
import { clearHeatmap, renderHeatmap } from './views/heatmap/index.js';

/** The largest number of tokens the figure shows; longer text is cut, with a notice. */
const MAX_TOKENS = 64;

const PROMPT = 'Type a sentence above to see how its words attend to each other.';
const NO_WASM =
  'This page needs WebAssembly, which this browser does not offer or has turned off. ' +
  'Please open it in an up-to-date browser with WebAssembly enabled.';
const LOAD_FAILED =
  'The attention engine could not be loaded, so the figure cannot be drawn. ' +
  'Please reload the page to try again.';

const ui = {
  sentence: /** @type {HTMLTextAreaElement} */ (document.getElementById('sentence')),
  causal: /** @type {HTMLInputElement} */ (document.getElementById('causal')),
  status: /** @type {HTMLElement} */ (document.getElementById('status')),
  error: /** @type {HTMLElement} */ (document.getElementById('error')),
  result: /** @type {HTMLElement} */ (document.getElementById('result')),
  figure: /** @type {HTMLElement} */ (document.getElementById('figure')),
  count: /** @type {HTMLElement} */ (document.getElementById('token-count')),
};

/**
 * Shows a status line (or none), with an optional busy indicator.
 * @param {string} text
 * @param {{ busy?: boolean }} [options]
 */
function setStatus(text, { busy = false } = {}) {
  ui.status.textContent = text;
  ui.status.hidden = text === '';
  ui.status.classList.toggle('busy', busy);
  document.body.setAttribute('aria-busy', String(busy));
}

/**
 * Shows an error in the alert box (or hides the box when text is empty).
 * @param {string} text
 */
function setError(text) {
  ui.error.textContent = text;
  ui.error.hidden = text === '';
}

/** Hides the figure. */
function hideFigure() {
  ui.result.hidden = true;
  clearHeatmap(ui.figure);
}

/**
 * Self-attention of the sentence with itself: X = placeholder vectors, Q = K = V = X.
 * @param {{ unitNormal: Function, attention: Function }} engine
 * @param {string[]} tokens
 * @param {boolean} causal
 * @returns {Float32Array} the n x n attention weights
 */
function selfAttention(engine, tokens, causal) {
  const n = tokens.length;
  const x = embedTokens(
    tokens,
    (rows, cols, seed) => engine.unitNormal(rows, cols, seed),
    EMBED_DIM,
  );
  const { weights } = engine.attention({
    q: x,
    k: x,
    v: x,
    nq: n,
    nk: n,
    dk: EMBED_DIM,
    dv: EMBED_DIM,
    causal,
  });
  return weights;
}

/**
 * Reads the inputs and redraws everything.
 * @param {{ unitNormal: Function, attention: Function }} engine
 */
function update(engine) {
  const all = tokenize(ui.sentence.value);
  if (all.length === 0) {
    hideFigure();
    setError('');
    setStatus(PROMPT);
    return;
  }
  const tokens = all.slice(0, MAX_TOKENS);
  const causal = ui.causal.checked;
  setStatus(
    all.length > MAX_TOKENS
      ? `Showing the first ${MAX_TOKENS} of ${all.length} tokens; the rest are left out.`
      : '',
  );

  let weights;
  try {
    weights = selfAttention(engine, tokens, causal);
  } catch (err) {
    console.error(err);
    hideFigure();
    setError(`The weights could not be computed: ${err.message}`);
    return;
  }
  setError('');
  const n = tokens.length;
  const masked = Array.from(
    { length: n * n },
    (_, index) => causal && index % n > Math.floor(index / n),
  );
  ui.count.textContent = `${n} ${n === 1 ? 'token' : 'tokens'}${causal ? ', causal mask on' : ''}`;
  ui.result.hidden = false;
  renderHeatmap(ui.figure, {
    rowLabels: tokens,
    colLabels: tokens,
    values: weights,
    masked,
    rowName: 'query',
    colName: 'key',
    caption:
      `Self-attention weights, ${n} by ${n}${causal ? ', causal mask on' : ''}. ` +
      'Rows are queries (the token that looks), columns are keys (the token looked at); ' +
      'each row sums to 1.',
  });
}

/** Loads the engine, then keeps the figure in step with the inputs. */
async function start() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    setStatus('');
    setError(NO_WASM);
    return;
  }
  setStatus('Loading the attention engine\u2026', { busy: true });
  let engine;
  try {
    const { loadEngine } = await import('./engine/browser.js');
    engine = await loadEngine();
  } catch (err) {
    console.error(err);
    setStatus('');
    setError(LOAD_FAILED);
    return;
  }
  setStatus('');
  const redraw = () => update(engine);
  ui.sentence.addEventListener('input', redraw);
  ui.causal.addEventListener('change', redraw);
  redraw();
}

start();
