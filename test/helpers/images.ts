/**
 * Small real image files built byte by byte, of any size, for upload tests: a PNG (zlib-compressed
 * scanlines, CRCs), a baseline JPEG's header segments (SOI, APP0, DQT, SOF0, DHT, SOS, a little
 * entropy-coded data, EOI), a GIF89a, WebP (VP8L) and BMP; and multipart/form-data bodies
 * encoded as curl -F / requests send them.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  // each scanline: filter byte 0 then RGB pixels
  const raw = Buffer.alloc((width * 3 + 1) * height, 0x7f);
  for (let y = 0; y < height; y++) raw[y * (width * 3 + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const segment = (marker: number, data: number[]) =>
  Buffer.from([0xff, marker, ((data.length + 2) >> 8) & 0xff, (data.length + 2) & 0xff, ...data]);

export function jpeg(width: number, height: number): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF
    segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // one quantisation table
    segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]), // SOF0, one component
    segment(0xc4, [0x00, 1, ...new Array<number>(15).fill(0), 0]), // DC table: one code of length 1
    segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0]), // AC table: one code (EOB)
    segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    Buffer.from([0x00, 0xff, 0xd9]),
  ]);
}

export function gif(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0x80; // global colour table of 2 entries
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c;
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    screen,
    Buffer.from([0, 0, 0, 255, 255, 255]),
    descriptor,
    Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]), // LZW minimum code size 2, one data block
    Buffer.from([0x3b]),
  ]);
}

export function webp(width: number, height: number): Buffer {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const vp8l = Buffer.alloc(10);
  vp8l[0] = 0x2f;
  vp8l.writeUInt32LE(bits >>> 0, 1);
  const chunkHead = Buffer.concat([Buffer.from('VP8L', 'ascii'), Buffer.from([vp8l.length, 0, 0, 0])]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunkHead.length + vp8l.length);
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), size, Buffer.from('WEBP', 'ascii'), chunkHead, vp8l]);
}

export function bmp(width: number, height: number): Buffer {
  const rowBytes = Math.ceil((width * 3) / 4) * 4;
  const b = Buffer.alloc(54 + rowBytes * height);
  b.write('BM', 0, 'ascii');
  b.writeUInt32LE(b.length, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(-height, 22); // top-down
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  return b;
}

export interface FilePart {
  filename: string;
  contentType?: string;
  data: Buffer;
}

/** A multipart/form-data body and its Content-Type, parts in the given order. */
export function multipart(parts: Record<string, string | number | FilePart>): { body: Buffer; contentType: string } {
  const boundary = `----inv-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(parts)) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (typeof value === 'object') {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n`));
      chunks.push(Buffer.from(`Content-Type: ${value.contentType ?? 'application/octet-stream'}\r\n\r\n`));
      chunks.push(value.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A base64 data: URI of bytes (the JSON clients' way to send an image) */
export const dataUri = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
