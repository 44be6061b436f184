/**
 * Draws the add-in's icon (a rounded tile with three candlesticks and a trend
 * line) at every size the manifest and the catalog need, and writes
 * assets/icon-<size>.png. Run: npm run icons
 * The PNGs are committed; this script is how they were made. The sizes are the
 * package check's table (scripts/package-check.ts), so what is drawn is what
 * the build requires.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { ICON_SIZES } from './package-check';

type RGBA = [number, number, number, number];
const TILE: RGBA = [16, 124, 65, 255]; // Excel green
const WHITE: RGBA = [255, 255, 255, 255];
const GOLD: RGBA = [255, 200, 61, 255];

/** Shapes in a 0..1 unit square; later shapes paint over earlier ones. */
type Shape = (x: number, y: number) => boolean;
const roundedRect = (x0: number, y0: number, x1: number, y1: number, r: number): Shape => (x, y) => {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const rect = (x0: number, y0: number, x1: number, y1: number): Shape => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const segment = (ax: number, ay: number, bx: number, by: number, w: number): Shape => (x, y) => {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= (w / 2) ** 2;
};
function candle(cx: number, bodyTop: number, bodyBottom: number, wickTop: number, wickBottom: number): Shape[] {
  return [rect(cx - 0.012, wickTop, cx + 0.012, wickBottom), rect(cx - 0.06, bodyTop, cx + 0.06, bodyBottom)];
}

const layers: [Shape, RGBA][] = [
  [roundedRect(0.04, 0.04, 0.96, 0.96, 0.18), TILE],
  ...candle(0.27, 0.55, 0.75, 0.48, 0.82).map((s): [Shape, RGBA] => [s, WHITE]),
  ...candle(0.5, 0.38, 0.62, 0.3, 0.7).map((s): [Shape, RGBA] => [s, WHITE]),
  ...candle(0.73, 0.22, 0.45, 0.15, 0.52).map((s): [Shape, RGBA] => [s, WHITE]),
  [segment(0.14, 0.62, 0.86, 0.2, 0.05), GOLD],
];

function render(size: number): Buffer {
  const ss = 4; // supersampling per axis, for smooth edges at 16 px
  const px = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const u = (x + (sx + 0.5) / ss) / size, w = (y + (sy + 0.5) / ss) / size;
          let c: RGBA = [0, 0, 0, 0];
          for (const [shape, color] of layers) if (shape(u, w)) c = color;
          // premultiplied accumulation
          acc[0] += (c[0] * c[3]) / 255; acc[1] += (c[1] * c[3]) / 255; acc[2] += (c[2] * c[3]) / 255; acc[3] += c[3];
        }
      }
      const n = ss * ss, a = acc[3] / n, i = (y * size + x) * 4;
      px[i] = a ? Math.round(((acc[0] / n) * 255) / a) : 0;
      px[i + 1] = a ? Math.round(((acc[1] / n) * 255) / a) : 0;
      px[i + 2] = a ? Math.round(((acc[2] / n) * 255) / a) : 0;
      px[i + 3] = Math.round(a);
    }
  }
  return encodePng(size, size, px);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

for (const size of ICON_SIZES) {
  writeFileSync(new URL(`../assets/icon-${size}.png`, import.meta.url), render(size));
  console.log(`assets/icon-${size}.png`);
}
