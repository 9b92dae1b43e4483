/**
 * The extension's icons, drawn at build time (no image files in git, no image library): a rounded
 * square with a shell prompt ">_" — chrome-relay is driven from the shell. Two variants: the normal
 * blue one, and grey for "the native host is not connected" (activity/indicator.ts switches them).
 *
 * Shapes are signed-distance functions in a 128-unit box, sampled 4×4 per pixel for anti-aliasing,
 * and written as 8-bit RGBA PNGs with node:zlib.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

export const ICON_SIZES = [16, 32, 48, 128];
const COLORS = { normal: [26, 115, 232], grey: [154, 160, 166] };
const SAMPLES = 4;
const STROKE = 6.5; // half the glyph's line width, in box units

function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

function insideRoundedSquare(x, y) {
  const r = 26;
  const qx = Math.max(Math.abs(x - 64) - (64 - r), 0);
  const qy = Math.max(Math.abs(y - 64) - (64 - r), 0);
  return Math.hypot(qx, qy) <= r;
}

function onGlyph(x, y) {
  const chevron = Math.min(segmentDistance(x, y, 34, 38, 62, 64), segmentDistance(x, y, 62, 64, 34, 90));
  const underscore = segmentDistance(x, y, 70, 90, 96, 90);
  return Math.min(chevron, underscore) <= STROKE;
}

function pixels(size, [r, g, b]) {
  const data = Buffer.alloc(size * size * 4);
  const scale = 128 / size;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let square = 0;
      let glyph = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) * scale;
          const y = (py + (sy + 0.5) / SAMPLES) * scale;
          if (!insideRoundedSquare(x, y)) continue;
          square++;
          if (onGlyph(x, y)) glyph++;
        }
      }
      const n = SAMPLES * SAMPLES;
      const alpha = square / n;
      const white = square === 0 ? 0 : glyph / square;
      const at = (py * size + px) * 4;
      data[at] = Math.round(r + (255 - r) * white);
      data[at + 1] = Math.round(g + (255 - g) * white);
      data[at + 2] = Math.round(b + (255 - b) * white);
      data[at + 3] = Math.round(alpha * 255);
    }
  }
  return data;
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

function chunk(type, body) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

export function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = [];
  for (let y = 0; y < size; y++) rows.push(Buffer.from([0]), rgba.subarray(y * size * 4, (y + 1) * size * 4));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Write icons/icon<size>.png and icons/icon<size>-grey.png into `outDir`. */
export async function writeIcons(outDir) {
  const dir = join(outDir, 'icons');
  await mkdir(dir, { recursive: true });
  await Promise.all(
    ICON_SIZES.flatMap((size) => [
      writeFile(join(dir, `icon${size}.png`), encodePng(size, pixels(size, COLORS.normal))),
      writeFile(join(dir, `icon${size}-grey.png`), encodePng(size, pixels(size, COLORS.grey))),
    ]),
  );
}
