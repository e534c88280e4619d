/**
 * Draws the PortalDesk icon and writes it as PNG: build/icon.png (1024 px, electron-builder makes
 * the platform icons from it) and resources/icon.png (512 px, for the app window).
 *
 * The design is a few shapes, so it is drawn from distance functions rather than kept as a binary
 * file nobody can edit: a rounded square with a blue-to-violet diagonal gradient, and a white
 * "portal" mark, a ring with a dot set up and to the right inside it.
 *
 * Usage: node scripts/make-icons.mjs
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const OUTPUTS = [
  { file: 'build/icon.png', size: 1024 },
  { file: 'resources/icon.png', size: 512 },
];

// Geometry as fractions of the icon's size, so every size is drawn from the same numbers.
const MARGIN = 0.05; // transparent border around the square
const CORNER = 0.22; // corner radius, as a fraction of the square's side
const RING_OUTER = 0.32;
const RING_INNER = 0.21; // thick enough to stay a ring, not a hairline, at 16 px
const DOT_RADIUS = 0.08;
const DOT_OFFSET = 0.035; // up and to the right of the centre, leaving a clear gap to the ring
const FROM = [0x3b, 0x7b, 0xff]; // top left
const TO = [0x7a, 0x4d, 0xff]; // bottom right

/** Signed distance to a rounded square centred at the origin (negative inside). */
function roundedSquare(x, y, half, radius) {
  const qx = Math.abs(x) - half + radius;
  const qy = Math.abs(y) - half + radius;
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  return outside + Math.min(Math.max(qx, qy), 0) - radius;
}

/** Signed distance to a ring (annulus) centred at the origin. */
function ring(x, y, inner, outer) {
  return Math.abs(Math.hypot(x, y) - (inner + outer) / 2) - (outer - inner) / 2;
}

function circle(x, y, cx, cy, radius) {
  return Math.hypot(x - cx, y - cy) - radius;
}

/**
 * How much of a pixel a shape covers, from its signed distance in pixels: an analytic
 * antialiasing that keeps edges smooth at any size without supersampling.
 */
function coverage(distance) {
  return Math.min(Math.max(0.5 - distance, 0), 1);
}

/** RGBA pixels of the icon at size x size. */
function drawIcon(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const side = size * (1 - 2 * MARGIN);
  const centre = size / 2;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      // Pixel centre, relative to the icon's centre, in pixels.
      const x = px + 0.5 - centre;
      const y = py + 0.5 - centre;
      const shape = coverage(roundedSquare(x, y, side / 2, CORNER * side));
      if (shape === 0) continue;

      const mark = Math.max(
        coverage(ring(x, y, RING_INNER * side, RING_OUTER * side)),
        coverage(circle(x, y, DOT_OFFSET * side, -DOT_OFFSET * side, DOT_RADIUS * side)),
      );
      // 0 at the top-left corner of the square, 1 at the bottom-right.
      const t = Math.min(Math.max((x + y) / (2 * side) + 0.5, 0), 1);
      const offset = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) {
        const background = FROM[c] + (TO[c] - FROM[c]) * t;
        pixels[offset + c] = Math.round(background + (255 - background) * mark);
      }
      pixels[offset + 3] = Math.round(255 * shape);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A truecolour-with-alpha, 8-bit, non-interlaced PNG. */
function encodePng(pixels, size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // colour type: RGBA
  // Compression, filter method and interlace stay 0.

  // Every scanline starts with its filter type; 0 (none) is simplest and deflate does the rest.
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++)
    pixels.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);

  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const { file, size } of OUTPUTS) {
  const target = path.join(root, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, encodePng(drawIcon(size), size));
  console.log(`make-icons: wrote ${file} (${size}x${size})`);
}
