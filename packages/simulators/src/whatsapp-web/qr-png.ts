import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/**
 * A QR-code-like picture for the simulated bridge: a 25×25 module grid with the three finder
 * squares of a QR code and the other modules drawn from a hash of `text`, as a grayscale PNG. It
 * looks like a QR code on the channel's settings screen and changes with the code; it is not
 * scannable (no phone links to a simulator).
 */

const MODULES = 25;
const SCALE = 6;
const MARGIN = 4;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function isFinder(x: number, y: number): boolean | null {
  for (const [ox, oy] of [
    [0, 0],
    [MODULES - 7, 0],
    [0, MODULES - 7],
  ] as const) {
    const dx = x - ox;
    const dy = y - oy;
    if (dx >= -1 && dx <= 7 && dy >= -1 && dy <= 7) {
      if (dx < 0 || dy < 0 || dx > 6 || dy > 6) return false;
      const ring = Math.min(dx, dy, 6 - dx, 6 - dy);
      return ring !== 1;
    }
  }
  return null;
}

/** The picture of `text` as a PNG data: URL, as the bridge answers a QR code. */
export function qrPngDataUrl(text: string): string {
  const bits = createHash('sha512').update(text).digest();
  const side = (MODULES + 2 * MARGIN) * SCALE;
  const rows: Buffer[] = [];
  for (let py = 0; py < side; py++) {
    const row = Buffer.alloc(side + 1);
    for (let px = 0; px < side; px++) {
      const x = Math.floor(px / SCALE) - MARGIN;
      const y = Math.floor(py / SCALE) - MARGIN;
      let dark = false;
      if (x >= 0 && y >= 0 && x < MODULES && y < MODULES) {
        const finder = isFinder(x, y);
        const i = y * MODULES + x;
        dark = finder ?? ((bits[(i >> 3) % bits.length]! >> (i & 7)) & 1) === 1;
      }
      row[px + 1] = dark ? 0 : 255;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
