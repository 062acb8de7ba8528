// Heatmap axis labels: shortening long tokens, estimating their width, and drawing them in SVG.
import { svgEl } from './dom.js';

const MAX_LABEL_CHARS = 12;

/**
 * An SVG label, shortened when long (the full text stays in a <title>).
 * @param {Document} doc
 * @param {string} label
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
export function labelText(doc, label, attrs) {
  const short = shortLabel(label);
  const text = svgEl(doc, 'text', attrs, short);
  if (short !== label) text.append(svgEl(doc, 'title', {}, label));
  return text;
}

/**
 * A hidden-from-readers group of axis labels: every `step`-th one, kept at its index (the array
 * has holes where no label is drawn).
 * @param {Document} doc
 * @param {string} labelClass 'row-label' or 'col-label'; the group's class is its plural
 * @param {string[]} labels
 * @param {number} step
 * @param {(k: number) => Record<string, string | number>} placeAt where label k goes
 */
export function labelGroup(doc, labelClass, labels, step, placeAt) {
  const group = svgEl(doc, 'g', { class: `${labelClass}s`, 'aria-hidden': 'true' });
  const texts = [];
  labels.forEach((label, k) => {
    if (k % step === 0) texts[k] = labelText(doc, label, { class: labelClass, ...placeAt(k) });
  });
  group.append(...texts.filter(Boolean));
  return { group, texts };
}

/**
 * @param {string} label
 * @returns {string} the label, cut to MAX_LABEL_CHARS user-visible characters
 */
export function shortLabel(label) {
  const chars = graphemes(label);
  return chars.length <= MAX_LABEL_CHARS
    ? label
    : `${chars.slice(0, MAX_LABEL_CHARS - 1).join('')}\u2026`;
}

/**
 * A rough width estimate of a label, good enough for layout.
 * @param {string} text
 * @param {number} font the font size in pixels
 * @returns {number} the width in pixels
 */
export function textWidth(text, font) {
  let width = 0;
  for (const ch of text) {
    if (/[\p{M}\p{Cf}\uFE00-\uFE0F]/u.test(ch)) continue;
    width += ch.codePointAt(0) < 0x1100 ? 0.6 : 1.15;
  }
  return width * font;
}

/**
 * @param {string} text
 * @returns {string[]} the user-visible characters of the text
 */
function graphemes(text) {
  if (typeof Intl === 'object' && typeof Intl.Segmenter === 'function') {
    return Array.from(
      new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text),
      (s) => s.segment,
    );
  }
  return Array.from(text);
}
