// The installable lesson's icons (web/build/app-icons.js): real PNG pictures of the pages' own
// icon, read back here with an independent decoder of the format's few parts we write.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { ICON_COLOURS, ICON_SIZES, iconPng } from '../../web/build/app-icons.js';
import { ICON } from '../../web/build/vite-plugin-page-head.js';

/**
 * The chunks of a PNG file, each CRC checked.
 * @param {Buffer} png
 */
function chunks(png) {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const list = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    assert.equal(png.readUInt32BE(at + 8 + length), crc32(png.subarray(at + 4, at + 8 + length)));
    list.push({ type, data });
    at += 12 + length;
  }
  return list;
}

/** @param {string} hex */
const rgb = (hex) => [1, 3, 5].map((k) => Number.parseInt(hex.slice(k, k + 2), 16));

test('each icon is a PNG of its size showing the four squares in the icon’s two blues', () => {
  for (const size of [...ICON_SIZES, 3]) {
    const parts = chunks(iconPng(size));
    assert.deepEqual(
      parts.map((part) => part.type),
      ['IHDR', 'IDAT', 'IEND'],
    );
    const header = parts[0].data;
    assert.equal(header.readUInt32BE(0), size);
    assert.equal(header.readUInt32BE(4), size);
    assert.deepEqual([...header.subarray(8)], [8, 2, 0, 0, 0]);
    const rows = inflateSync(parts[1].data);
    assert.equal(rows.length, size * (1 + 3 * size));
    const pixel = (x, y) => [...rows.subarray(y * (1 + 3 * size) + 1 + 3 * x).subarray(0, 3)];
    const last = size - 1;
    assert.deepEqual(pixel(0, 0), rgb(ICON_COLOURS.dark), `${size}: top left`);
    assert.deepEqual(pixel(last, 0), rgb(ICON_COLOURS.light), `${size}: top right`);
    assert.deepEqual(pixel(0, last), rgb(ICON_COLOURS.light), `${size}: bottom left`);
    assert.deepEqual(pixel(last, last), rgb(ICON_COLOURS.dark), `${size}: bottom right`);
  }
});

test('the pictures use the colours of the pages’ own icon', () => {
  const svg = decodeURIComponent(ICON);
  assert.match(svg, new RegExp(`<rect width='8' height='8' fill='${ICON_COLOURS.dark}'/>`));
  assert.match(svg, new RegExp(`<rect x='8' width='8' height='8' fill='${ICON_COLOURS.light}'/>`));
});

test('a size that is not a whole number from 2 to 4096 gets a message', () => {
  for (const size of [0, 1, 2.5, 5000, Number.NaN]) {
    assert.throws(() => iconPng(size), /whole number from 2 to 4096/);
  }
});
