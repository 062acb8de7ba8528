// The lesson's icon as PNG pictures, for the web app manifest (a phone's home screen, an
// installed app's window): the same four squares in the lesson's two blues as the pages' own SVG
// icon (ICON in vite-plugin-page-head.js), drawn at any size with no image library.
import { Buffer } from 'node:buffer';
import { crc32, deflateSync } from 'node:zlib';

/** The icon's two colours, dark at the top left and bottom right. */
export const ICON_COLOURS = Object.freeze({ dark: '#1d3f8f', light: '#93b7e6' });

/** The sizes the manifest lists: 192 and 512 are what browsers ask of an installable app. */
export const ICON_SIZES = Object.freeze([192, 512]);

/**
 * @param {string} hex '#rrggbb'
 * @returns {[number, number, number]}
 */
function rgb(hex) {
  return [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));
}

/**
 * One PNG chunk: length, type, data, and the CRC of type and data.
 * @param {string} type
 * @param {Buffer} data
 */
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The icon as a square PNG picture: an 8-bit RGB image with no filter. The squares fill the
 * whole picture, so it also serves as a maskable icon (a mask keeps its middle: all four squares).
 * @param {number} size the side in pixels, a whole number from 2 to 4096
 * @returns {Buffer}
 */
export function iconPng(size) {
  if (!Number.isInteger(size) || size < 2 || size > 4096) {
    throw new Error(`an icon's size must be a whole number from 2 to 4096, not ${size}`);
  }
  const dark = rgb(ICON_COLOURS.dark);
  const light = rgb(ICON_COLOURS.light);
  const half = size / 2;
  const rows = Buffer.alloc(size * (1 + 3 * size));
  for (let y = 0; y < size; y += 1) {
    const start = y * (1 + 3 * size);
    rows[start] = 0; // no filter
    for (let x = 0; x < size; x += 1) {
      const colour = x < half === y < half ? dark : light;
      rows.set(colour, start + 1 + 3 * x);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Vite plugin: writes the icons into the build, as icons/icon-<size>.png.
 * @returns {import('vite').Plugin}
 */
export function appIconsPlugin() {
  return {
    name: 'attention-lab:app-icons',
    apply: 'build',
    generateBundle() {
      for (const size of ICON_SIZES) {
        this.emitFile({ type: 'asset', fileName: iconFile(size), source: iconPng(size) });
      }
    },
  };
}

/**
 * @param {number} size
 * @returns {string} where the icon of that size lies in the build
 */
export function iconFile(size) {
  return `icons/icon-${size}.png`;
}
