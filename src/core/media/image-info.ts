/**
 * What kind of image a file is, and its size in pixels, read from its first bytes (magic number and
 * header) without decoding it: PNG, JPEG, GIF, WebP and BMP, the formats NetBox 3.7 accepts through
 * Django's ImageField (Pillow) and names with their extension (extras/utils.py image_upload).
 * SVG is refused: Pillow cannot open it, so NetBox 3.7 refuses it too, and an SVG served from our
 * origin could carry script.
 */

type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp';

export interface ImageInfo {
  format: ImageFormat;
  /** the media type to serve it with */
  mime: string;
  width: number;
  height: number;
}

const MIME: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

/** Pillow's decompression-bomb limit (2 x MAX_IMAGE_PIXELS): larger images are refused as NetBox does */
export const MAX_PIXELS = 2 * 89_478_485;

type Size = { width: number; height: number } | null;

const ascii = (b: Uint8Array, at: number, text: string) =>
  b.length >= at + text.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

function pngSize(b: Buffer): Size {
  // signature, then the IHDR chunk first: length(4) "IHDR" width(4) height(4), big-endian
  if (b.length < 24 || !ascii(b, 12, 'IHDR')) return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gifSize(b: Buffer): Size {
  return b.length < 10 ? null : { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

/** the first start-of-frame segment (SOF0-SOF15 but DHT, JPG and DAC) holds the frame's size */
function jpegSize(b: Buffer): Size {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // markers without a length: TEM, RSTn, SOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame
    const length = b.readUInt16BE(at + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > b.length) return null;
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(b: Buffer): Size {
  if (b.length < 30) return null;
  if (ascii(b, 12, 'VP8 ')) {
    // lossy: frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (ascii(b, 12, 'VP8L')) {
    // lossless: signature 0x2f, then width-1 and height-1 in 14 bits each
    if (b[20] !== 0x2f) return null;
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(b, 12, 'VP8X')) {
    // extended: canvas width-1 and height-1 as 24-bit little-endian numbers
    return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  return null;
}

function bmpSize(b: Buffer): Size {
  if (b.length < 26) return null;
  const header = b.readUInt32LE(14);
  // OS/2 BITMAPCOREHEADER: 16-bit sizes; the others: signed 32-bit (a negative height is top-down)
  if (header === 12) return { width: b.readUInt16LE(18), height: b.readUInt16LE(20) };
  if (header < 40) return null;
  return { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) };
}

function formatOf(b: Buffer): ImageFormat | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'webp';
  if (ascii(b, 0, 'BM')) return 'bmp';
  return null;
}

const SIZE_OF: Record<ImageFormat, (b: Buffer) => Size> = {
  png: pngSize,
  jpeg: jpegSize,
  gif: gifSize,
  webp: webpSize,
  bmp: bmpSize,
};

/** The image's format and size, or null when the bytes are not one of the accepted formats (or a broken one). */
export function readImageInfo(bytes: Buffer): ImageInfo | null {
  const format = formatOf(bytes);
  if (!format) return null;
  const size = SIZE_OF[format](bytes);
  if (!size || size.width <= 0 || size.height <= 0 || size.width * size.height > MAX_PIXELS) return null;
  return { format, mime: MIME[format], ...size };
}

/** The media type of stored bytes, for serving them (application/octet-stream when not an image we accept). */
export function mimeOf(bytes: Buffer): string {
  const format = formatOf(bytes);
  return format ? MIME[format] : 'application/octet-stream';
}
