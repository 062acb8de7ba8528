// Heatmap picture: a dense grid's cells as one SVG <image> with one pixel per cell, stretched over
// the grid's box (square pixels, no smoothing), masked cells hatched on top of it, and the cell
// under a pointer found from its position. The picture is repainted when the colour scheme
// changes, since its colours are computed rather than styled.
import { svgEl } from './dom.js';
import { colX, rowY } from './layout.js';
import { bitmap, bitmapUrl, darkQuery, paint, paletteFor } from './pixels.js';

/**
 * @typedef {object} Picture
 * @property {SVGGElement} group the image and the hatch over it
 * @property {SVGImageElement} image one pixel per cell
 * @property {SVGPathElement} hatch covers the masked cells
 * @property {import('./pixels.js').Bitmap} pixels the image's pixels, rows x cols
 * @property {import('./layout.js').Box} box
 * @property {number} nRows
 * @property {number} nCols
 * @property {HTMLElement | null} host the element whose styles give the colours
 * @property {import('./index.js').HeatmapData | null} data what the picture shows
 */

/** @type {Set<Picture>} the pictures in use, repainted when the colour scheme changes */
const shown = new Set();
/** @type {WeakSet<Window>} */
const watched = new WeakSet();

/**
 * The picture's elements, empty until fillPicture.
 * @param {Document} doc
 * @param {import('./layout.js').Box} box
 * @param {number} nRows
 * @param {number} nCols
 * @param {string} hatchId the pattern that fills masked cells
 * @returns {Picture}
 */
export function pictureLayer(doc, box, nRows, nCols, hatchId) {
  const group = /** @type {SVGGElement} */ (svgEl(doc, 'g', { class: 'cell-picture' }));
  const image = /** @type {SVGImageElement} */ (
    svgEl(doc, 'image', {
      x: colX(box, 0),
      y: rowY(box, 0),
      width: nCols * box.cell,
      height: nRows * box.rowHeight,
      preserveAspectRatio: 'none',
      // An attribute rather than CSS, so that the saved file keeps the pixels square.
      'image-rendering': 'pixelated',
    })
  );
  const hatch = /** @type {SVGPathElement} */ (
    svgEl(doc, 'path', { class: 'masked-cells', fill: `url(#${hatchId})`, d: '' })
  );
  group.append(image, hatch);
  const pixels = bitmap(nRows, nCols);
  watchScheme(doc);
  return { group, image, hatch, pixels, box, nRows, nCols, host: null, data: null };
}

/**
 * Paints the values (rows x cols, row-major) into the picture and hatches the masked cells.
 * @param {Picture} picture
 * @param {HTMLElement} host the element the heatmap is drawn into, in the page
 * @param {import('./index.js').HeatmapData} data
 */
export function fillPicture(picture, host, data) {
  picture.host = host;
  picture.data = data;
  for (const other of shown) if (other !== picture && !other.image.isConnected) shown.delete(other);
  shown.add(picture);
  const range = data.range ?? [0, 1];
  paint(picture.pixels, data.values, data.masked, range, paletteFor(host.ownerDocument, range));
  picture.image.setAttribute('href', bitmapUrl(picture.pixels));
  const hatch = maskedPath(picture, data.masked);
  if (picture.hatch.getAttribute('d') !== hatch) picture.hatch.setAttribute('d', hatch);
}

/**
 * Stops repainting the picture (it left the page).
 * @param {Picture} picture
 */
export function clearPicture(picture) {
  shown.delete(picture);
}

/**
 * The cell under a point of the screen, or -1 outside the grid.
 * @param {Picture} picture
 * @param {number} clientX
 * @param {number} clientY
 * @returns {number} a row-major index
 */
export function cellAt(picture, clientX, clientY) {
  const rect = picture.image.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) return -1;
  const col = Math.floor(((clientX - rect.left) / rect.width) * picture.nCols);
  const row = Math.floor(((clientY - rect.top) / rect.height) * picture.nRows);
  if (col < 0 || row < 0 || col >= picture.nCols || row >= picture.nRows) return -1;
  return row * picture.nCols + col;
}

/**
 * One rectangle per run of masked cells along a row.
 * @param {Picture} picture
 * @param {ArrayLike<boolean> | undefined} masked rows x cols
 * @returns {string} path data
 */
function maskedPath(picture, masked) {
  if (!masked) return '';
  const { box, nRows, nCols } = picture;
  const parts = [];
  for (let i = 0; i < nRows; i++) {
    for (let j = 0; j < nCols; j++) {
      if (!masked[i * nCols + j]) continue;
      const start = j;
      while (j + 1 < nCols && masked[i * nCols + j + 1]) j++;
      const width = (j + 1 - start) * box.cell;
      parts.push(`M${colX(box, start)} ${rowY(box, i)}h${width}v${box.rowHeight}h${-width}z`);
    }
  }
  return parts.join('');
}

/**
 * Repaints every picture in the page when the light or dark scheme comes on.
 * @param {Document} doc
 */
function watchScheme(doc) {
  const view = doc.defaultView;
  const query = view && !watched.has(view) ? darkQuery(view) : null;
  if (!view || !query) return;
  watched.add(view);
  query.addEventListener('change', () => {
    for (const picture of shown) {
      if (picture.host?.isConnected && picture.image.isConnected && picture.data) {
        fillPicture(picture, picture.host, picture.data);
      } else shown.delete(picture);
    }
  });
}
