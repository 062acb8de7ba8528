// Heatmap DOM helpers: make HTML and SVG elements with attributes and, optionally, text.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Makes an HTML element.
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs] set in this order
 * @param {string} [text] its text content
 * @returns {HTMLElement}
 */
export function el(doc, tag, attrs = {}, text) {
  return fill(doc.createElement(tag), attrs, text);
}

/**
 * Makes an SVG element.
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs] set in this order
 * @param {string} [text] its text content
 * @returns {SVGElement}
 */
export function svgEl(doc, tag, attrs = {}, text) {
  return fill(doc.createElementNS(SVG_NS, tag), attrs, text);
}

/**
 * @template {Element} T
 * @param {T} node
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 * @returns {T}
 */
function fill(node, attrs, text) {
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}
