// Heatmap pixels: the colours of a dense grid computed in script, one pixel per cell, the same
// colours the cell grid gets from CSS (heatColour: a mix in Oklab of the scale's three stops, read
// from the page's custom properties, so each colour scheme keeps its palette), written straight
// into an uncompressed bitmap (BMP) whose data URL an SVG <image> shows at once.
import { interpolateNumberArray, piecewise, quantize } from 'd3-interpolate';
import { isDiverging } from './colour.js';

/** Colours per scale: value t in [0, 1] -> entry round(t * (STEPS - 1)). */
const STEPS = 1024;

/**
 * @typedef {{ words: Uint32Array, maskedWord: number }} Palette the colour of each step of the
 *   scale and of a masked cell, as the bitmap's 4-byte pixels
 */

/** The media query of the dark colour scheme, whose stops differ. */
const DARK = '(prefers-color-scheme: dark)';
const SEQUENTIAL = ['--heat-0', '--heat-1', '--heat-2'];
const DIVERGING = ['--div-neg', '--div-mid', '--div-pos'];

/** @type {WeakMap<Window, MediaQueryList>} */
const darkQueries = new WeakMap();

/**
 * The dark scheme's media query list of a window, made once.
 * @param {Window} view
 * @returns {MediaQueryList | null}
 */
export function darkQuery(view) {
  if (typeof view.matchMedia !== 'function') return null;
  let query = darkQueries.get(view);
  if (!query) {
    query = view.matchMedia(DARK);
    darkQueries.set(view, query);
  }
  return query;
}

/** @type {Map<string, Palette>} palettes by scale and colour scheme */
const palettes = new Map();
/** @type {WeakMap<Document, { canvas: HTMLCanvasElement, context: CanvasRenderingContext2D }>} */
const canvases = new WeakMap();
/** @type {Map<string, [number, number, number]>} */
const parsed = new Map();

/**
 * The colour scale of a range as the page now styles it (light or dark). The stops are read from
 * the page's root once per colour scheme: reading computed styles while a figure is being
 * redrawn would make the browser work out every style again.
 * @param {Document} doc
 * @param {[number, number]} [range]
 * @returns {Palette}
 */
export function paletteFor(doc, range = [0, 1]) {
  const view = /** @type {Window} */ (doc.defaultView);
  const dark = darkQuery(view)?.matches ?? false;
  const names = isDiverging(range) ? DIVERGING : SEQUENTIAL;
  const key = `${names[0]}|${dark}|${doc.documentElement.className}`;
  let palette = palettes.get(key);
  if (!palette) {
    const style = view.getComputedStyle(doc.documentElement);
    const stops = [...names, '--masked-bg'].map((name) => style.getPropertyValue(name).trim());
    const [low, mid, high, masked] = stops.map((colour) => toRgb(doc, colour));
    palette = { words: scale(low, mid, high), maskedWord: word(masked) };
    palettes.set(key, palette);
  }
  return palette;
}

/**
 * @typedef {{ bytes: Uint8Array, pixels: Uint32Array, rows: number, cols: number }} Bitmap a
 *   32-bit BMP file of rows x cols pixels (`bytes`): the headers, then from byte OFFSET the rows
 *   from the bottom one up, a pixel a 4-byte word (blue, green, red, 255), which `pixels` views
 */

/**
 * Where the pixels start: after the file header (14 bytes) and the BITMAPINFOHEADER (40), at a
 * multiple of 4, so that a 32-bit word is a pixel.
 */
const OFFSET = 56;
/** Whether this machine stores a 32-bit word low byte first (nearly every one does). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A bitmap of rows x cols pixels, all transparent black until painted.
 * @param {number} rows
 * @param {number} cols
 * @returns {Bitmap}
 */
export function bitmap(rows, cols) {
  const bytes = new Uint8Array(OFFSET + 4 * rows * cols);
  const header = new DataView(bytes.buffer);
  bytes.set([0x42, 0x4d]); // 'BM'
  header.setUint32(2, bytes.length, true);
  header.setUint32(10, OFFSET, true);
  header.setUint32(14, 40, true);
  header.setInt32(18, cols, true);
  header.setInt32(22, rows, true); // positive: the rows go bottom-up
  header.setUint16(26, 1, true); // one plane
  header.setUint16(28, 32, true); // bits per pixel; no compression (0 at 30)
  header.setUint32(34, 4 * rows * cols, true);
  header.setUint32(38, 2835, true); // 72 dots per inch, in dots per metre
  header.setUint32(42, 2835, true);
  return { bytes, pixels: new Uint32Array(bytes.buffer, OFFSET), rows, cols };
}

/**
 * Paints each value's colour into the bitmap: masked cells get the masked background, the others
 * their place on the scale. Shapes: values and masked rows x cols, row-major, as the bitmap.
 * @param {Bitmap} image
 * @param {ArrayLike<number>} values
 * @param {ArrayLike<boolean> | undefined} masked
 * @param {[number, number]} range
 * @param {Palette} palette
 */
export function paint(image, values, masked, range, palette) {
  const { pixels, rows, cols } = image;
  const { words, maskedWord } = palette;
  const mask = masked ?? null;
  const lo = range[0];
  const top = STEPS - 1;
  const scaleBy = top / (range[1] - lo || 1);
  for (let i = 0; i < rows; i++) {
    const row = (rows - 1 - i) * cols;
    const first = i * cols;
    for (let j = 0; j < cols; j++) {
      const k = first + j;
      // Clamped to the scale; NaN (no number) falls to its low end, as a clamped CSS mix would.
      const t = (values[k] - lo) * scaleBy;
      const step = t > 0 ? (t < top ? (t + 0.5) | 0 : top) : 0;
      pixels[row + j] = mask !== null && mask[k] ? maskedWord : words[step];
    }
  }
}

/**
 * The bitmap as a data URL: an SVG <image> loads a data URL at once, so the new picture is in
 * the next frame, and an exported SVG file keeps it.
 * @param {Bitmap} image
 * @returns {string}
 */
export function bitmapUrl(image) {
  const { bytes } = image;
  const native = /** @type {any} */ (bytes).toBase64;
  if (typeof native === 'function') return `data:image/bmp;base64,${native.call(bytes)}`;
  let binary = '';
  for (let k = 0; k < bytes.length; k += 0x8000) {
    binary += String.fromCharCode.apply(null, bytes.subarray(k, k + 0x8000));
  }
  return `data:image/bmp;base64,${btoa(binary)}`;
}

/**
 * The colour of each step of a three-stop scale, mixed in Oklab as CSS color-mix does: d3's
 * piecewise interpolation between the stops' Oklab coordinates (d3-color has no Oklab, so the
 * conversions below are ours), sampled at STEPS evenly spaced points.
 * @param {number[]} low sRGB, 0-255
 * @param {number[]} mid
 * @param {number[]} high
 * @returns {Uint32Array} STEPS pixels
 */
export function scale(low, mid, high) {
  const mix = piecewise(interpolateNumberArray, [low, mid, high].map(oklab));
  return Uint32Array.from(quantize((t) => word(srgb(mix(t))), STEPS));
}

/**
 * An opaque colour as one pixel of the bitmap: the bytes blue, green, red, 255 in memory order.
 * @param {number[]} rgb sRGB, 0-255
 * @returns {number}
 */
export function word([r, g, b]) {
  return LITTLE_ENDIAN
    ? (0xff000000 | (r << 16) | (g << 8) | b) >>> 0
    : ((b << 24) | (g << 16) | (r << 8) | 0xff) >>> 0;
}

/**
 * @param {Document} doc
 * @param {string} colour any CSS colour
 * @returns {[number, number, number]} its sRGB bytes (black when it cannot be read)
 */
function toRgb(doc, colour) {
  let rgb = parsed.get(colour);
  if (!rgb) {
    const { context } = canvasOf(doc);
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = '#000';
    context.fillStyle = colour || '#000';
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    rgb = [r, g, b];
    parsed.set(colour, rgb);
  }
  return rgb;
}

/** @param {Document} doc */
function canvasOf(doc) {
  let entry = canvases.get(doc);
  if (!entry) {
    const canvas = doc.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('heatmap: this browser cannot draw pixels');
    entry = { canvas, context };
    canvases.set(doc, entry);
  }
  return entry;
}

/** @param {number} c an sRGB channel, 0-255 @returns {number} linear light, 0-1 */
const linear = (c) => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};

/** @param {number} v linear light @returns {number} an sRGB channel, 0-255, rounded */
const gamma = (v) => {
  const c = v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
};

/**
 * sRGB (0-255) -> Oklab (L, a, b).
 * @param {number[]} rgb
 * @returns {number[]}
 */
function oklab([r, g, b]) {
  const [lr, lg, lb] = [r, g, b].map(linear);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

/**
 * Oklab (L, a, b) -> sRGB (0-255), clipped to the sRGB gamut.
 * @param {number[]} lab
 * @returns {number[]}
 */
function srgb([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ].map(gamma);
}
