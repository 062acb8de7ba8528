// Saving a figure as a file: the drawings a widget shows (heatmaps, charts, token lines) are put
// one under the other in a single standalone SVG, every style the page's CSS gave them written
// onto the elements (colours resolved to plain sRGB), and a dense heatmap's picture as a PNG, so
// the file looks the same anywhere; the PNG is that SVG drawn at twice the size.

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The drawings a figure is made of; legends and read-outs are HTML and stay behind. */
const DRAWINGS = 'svg.heatmap-svg, svg.chart-svg, svg.token-lines-svg';
const STYLES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'text-decoration-line',
];
const COLOURS = new Set(['fill', 'stroke']);
/** The styles an element takes from its parent; the others start from INITIAL. */
const INHERITED = new Set(
  STYLES.filter((name) => !['opacity', 'text-decoration-line'].includes(name)),
);
const INITIAL = { opacity: '1', 'text-decoration-line': 'none' };
const GAP = 16;
const PAD = 12;

/**
 * @param {Element} area the element a widget draws into
 * @returns {SVGSVGElement[]} the drawings shown in it, in page order
 */
export function figureDrawings(area) {
  return /** @type {SVGSVGElement[]} */ ([...area.querySelectorAll(DRAWINGS)]).filter(
    (svg) => svg.getClientRects().length > 0,
  );
}

/**
 * One standalone SVG document holding the drawings, one under the other, under a title.
 * @param {SVGSVGElement[]} drawings as figureDrawings finds them
 * @param {string} title written at the top of the file
 * @returns {{ text: string, width: number, height: number }} the SVG source and its size
 */
export function composeSvg(drawings, title) {
  if (drawings.length === 0) throw new Error('there is no figure to save');
  const doc = drawings[0].ownerDocument;
  const view = /** @type {Window} */ (doc.defaultView);
  const toRgb = colourResolver(doc);
  const sizes = drawings.map((svg) => svg.getBoundingClientRect());
  const width = Math.ceil(Math.max(...sizes.map((box) => box.width))) + 2 * PAD;
  const root = doc.createElementNS(SVG_NS, 'svg');
  const background = toRgb(view.getComputedStyle(doc.body).backgroundColor) || '#ffffff';
  const ink = toRgb(view.getComputedStyle(doc.body).color) || '#000000';
  root.append(rect(doc, width, 0, background));
  const heading = doc.createElementNS(SVG_NS, 'text');
  Object.entries({ x: PAD, y: PAD + 14, fill: ink, 'font-size': 16, 'font-weight': 700 }).forEach(
    ([name, value]) => heading.setAttribute(name, String(value)),
  );
  heading.setAttribute('font-family', view.getComputedStyle(doc.body).fontFamily);
  heading.textContent = title;
  root.append(heading);
  let y = PAD + 14 + GAP;
  drawings.forEach((svg, i) => {
    const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
    inlineStyles(svg, copy, view, toRgb);
    pngPictures(svg, copy);
    copy.setAttribute('x', String(PAD));
    copy.setAttribute('y', String(y));
    copy.setAttribute('width', String(sizes[i].width));
    copy.setAttribute('height', String(sizes[i].height));
    for (const name of ['tabindex', 'role', 'aria-describedby']) copy.removeAttribute(name);
    root.append(copy);
    y += sizes[i].height + GAP;
  });
  const height = Math.ceil(y - GAP + PAD);
  root.setAttribute('xmlns', SVG_NS);
  root.setAttribute('width', String(width));
  root.setAttribute('height', String(height));
  root.setAttribute('viewBox', `0 0 ${width} ${height}`);
  /** @type {Element} */ (root.firstChild).setAttribute('height', String(height));
  const text = new XMLSerializer().serializeToString(root);
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`, width, height };
}

/**
 * Draws an SVG document onto a canvas at `scale` times its size.
 * @param {{ text: string, width: number, height: number }} svg as composeSvg returns it
 * @param {Document} doc
 * @param {number} [scale]
 * @returns {Promise<Blob>} the PNG
 */
export async function svgToPng(svg, doc, scale = 2) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.text)}`;
  await image.decode();
  const canvas = doc.createElement('canvas');
  canvas.width = Math.round(svg.width * scale);
  canvas.height = Math.round(svg.height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser cannot draw the picture');
  context.scale(scale, scale);
  context.drawImage(image, 0, 0, svg.width, svg.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('the picture could not be made'))),
      'image/png',
    ),
  );
}

/**
 * Offers a file to the learner as a download.
 * @param {Document} doc
 * @param {Blob} blob
 * @param {string} name the file name
 */
export function offerDownload(doc, blob, name) {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Writes onto each copy the computed styles that differ from what it inherits (or, for the
 * styles that are not inherited, from their initial value), drops what only the page needs
 * (classes, inline CSS, data), and leaves out what is not drawn.
 * @param {Element} from
 * @param {Element} to
 * @param {Window} view
 * @param {(colour: string) => string} toRgb
 */
function inlineStyles(from, to, view, toRgb) {
  const sources = [from, ...from.querySelectorAll('*')];
  const copies = [to, ...to.querySelectorAll('*')];
  /** @type {Map<Element, Record<string, string>>} */
  const written = new Map();
  sources.forEach((source, i) => {
    const copy = copies[i];
    for (const name of [...copy.getAttributeNames()]) {
      if (name === 'class' || name === 'style' || name.startsWith('data-')) {
        copy.removeAttribute(name);
      }
    }
    const style = view.getComputedStyle(source);
    if (style.display === 'none' || style.visibility === 'hidden') {
      copy.setAttribute('display', 'none');
      return;
    }
    const inherited = (source.parentElement && written.get(source.parentElement)) || {};
    /** @type {Record<string, string>} */
    const own = {};
    for (const name of STYLES) {
      const raw = style.getPropertyValue(name);
      const value = COLOURS.has(name) && !raw.startsWith('url(') ? toRgb(raw) : raw;
      own[name] = value;
      const same = INHERITED.has(name) ? inherited[name] === value : value === INITIAL[name];
      if (!value || same) continue;
      copy.setAttribute(name === 'text-decoration-line' ? 'text-decoration' : name, value);
    }
    written.set(source, own);
  });
}

/**
 * Writes the pictures of a dense heatmap (a bitmap, one pixel per cell, which the page shows as a
 * data URL) into the copy as PNG, which every SVG reader knows. The heatmap's SVG gives the
 * picture's size in cells (data-rows, data-cols); a picture that cannot be read stays as it is.
 * @param {SVGSVGElement} from the drawing in the page
 * @param {SVGSVGElement} to its copy
 */
function pngPictures(from, to) {
  const rows = Number(from.dataset.rows);
  const cols = Number(from.dataset.cols);
  const copies = to.querySelectorAll('image');
  from.querySelectorAll('image').forEach((image, i) => {
    const href = image.getAttribute('href') ?? '';
    if (!href.startsWith('data:image/bmp') || !(rows > 0 && cols > 0)) return;
    const canvas = from.ownerDocument.createElement('canvas');
    canvas.width = cols;
    canvas.height = rows;
    const context = canvas.getContext('2d');
    try {
      context?.drawImage(image, 0, 0, cols, rows);
      copies[i]?.setAttribute('href', canvas.toDataURL('image/png'));
    } catch {
      // Not drawable here: the bitmap stays, which browsers read too.
    }
  });
}

/**
 * @param {Document} doc
 * @returns {(colour: string) => string} a CSS colour as #rrggbb or rgba(), '' for none
 */
function colourResolver(doc) {
  const canvas = doc.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  /** @type {Map<string, string>} */
  const known = new Map();
  return (colour) => {
    if (colour === 'none' || !context) return colour === 'none' ? 'none' : '';
    if (!known.has(colour)) {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = '#000';
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
      known.set(
        colour,
        a === 255 ? hex : a === 0 ? 'none' : `rgba(${r},${g},${b},${(a / 255).toFixed(3)})`,
      );
    }
    return /** @type {string} */ (known.get(colour));
  };
}

/**
 * @param {Document} doc
 * @param {number} width
 * @param {number} height
 * @param {string} fill
 */
function rect(doc, width, height, fill) {
  const box = doc.createElementNS(SVG_NS, 'rect');
  box.setAttribute('width', String(width));
  box.setAttribute('height', String(height));
  box.setAttribute('fill', fill);
  return box;
}
