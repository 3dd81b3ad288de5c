/** Image sniffing (core/media/image-info.ts) and the media store's names and paths (media-store.ts). */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_PIXELS, mimeOf, readImageInfo } from '../../src/core/media/image-info.js';
import { removeFile, resolveStored, storeFile, validFileName } from '../../src/core/media/media-store.js';
import { bmp, gif, jpeg, png, webp } from '../helpers/images.js';

/** a PNG whose header claims a size (the sniffer reads no further) */
function pngHeader(width: number, height: number): Buffer {
  const b = png(1, 1);
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

describe('readImageInfo', () => {
  it.each([
    ['png', png(123, 45), 'image/png'],
    ['jpeg', jpeg(1024, 768), 'image/jpeg'],
    ['gif', gif(300, 2), 'image/gif'],
    ['webp', webp(16383, 1), 'image/webp'],
    ['bmp', bmp(9, 4), 'image/bmp'],
  ])('reads a %s: format, type and size', (format, bytes, mime) => {
    const info = readImageInfo(bytes)!;
    expect(info.format).toBe(format);
    expect(info.mime).toBe(mime);
    expect(mimeOf(bytes)).toBe(mime);
  });

  it('reads the sizes written in the headers', () => {
    expect(readImageInfo(png(123, 45))).toMatchObject({ width: 123, height: 45 });
    expect(readImageInfo(jpeg(1024, 768))).toMatchObject({ width: 1024, height: 768 });
    expect(readImageInfo(gif(300, 2))).toMatchObject({ width: 300, height: 2 });
    expect(readImageInfo(webp(16383, 1))).toMatchObject({ width: 16383, height: 1 });
    expect(readImageInfo(bmp(9, 4))).toMatchObject({ width: 9, height: 4 });
  });

  it('takes the largest size Pillow opens', () => {
    expect(readImageInfo(pngHeader(65535, Math.floor(MAX_PIXELS / 65535)))).toMatchObject({ width: 65535 });
  });

  it('reads a lossy and an extended WebP', () => {
    const lossy = Buffer.alloc(30);
    lossy.write('RIFF', 0);
    lossy.write('WEBP', 8);
    lossy.write('VP8 ', 12);
    lossy.set([0x9d, 0x01, 0x2a], 23);
    lossy.writeUInt16LE(640, 26);
    lossy.writeUInt16LE(480, 28);
    expect(readImageInfo(lossy)).toMatchObject({ width: 640, height: 480 });
    const extended = Buffer.alloc(30);
    extended.write('RIFF', 0);
    extended.write('WEBP', 8);
    extended.write('VP8X', 12);
    extended.writeUIntLE(1919, 24, 3);
    extended.writeUIntLE(1079, 27, 3);
    expect(readImageInfo(extended)).toMatchObject({ width: 1920, height: 1080 });
  });

  it.each([
    ['text', Buffer.from('just text')],
    ['svg', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['a png signature alone', png(1, 1).subarray(0, 8)],
    ['a jpeg without a frame header', Buffer.from([0xff, 0xd8, 0xff, 0xd9])],
    ['a zero-width png', png(0, 5)],
    ['a decompression bomb', pngHeader(65535, Math.ceil(MAX_PIXELS / 65535) + 1)],
    ['empty bytes', Buffer.alloc(0)],
  ])('refuses %s', (_what, bytes) => {
    expect(readImageInfo(bytes)).toBeNull();
  });
});

describe('media store', () => {
  const root = mkdtempSync(join(tmpdir(), 'inv-media-unit-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('cleans names as Django get_valid_filename does', () => {
    expect(validFileName(' rack photo (1).png ')).toBe('rack_photo_1.png');
    expect(validFileName('../../etc/passwd')).toBe('....etcpasswd');
    expect(validFileName('Zürich.jpg')).toBe('Zürich.jpg');
    expect(validFileName('..')).toBe('file');
  });

  it('stores atomically under a unique name, at most 100 characters, and leaves no temporary file', async () => {
    const a = await storeFile(root, 'image-attachments', 'site_1_x.png', Buffer.from('a'));
    const b = await storeFile(root, 'image-attachments', 'site_1_x.png', Buffer.from('b'));
    expect(a).toBe('image-attachments/site_1_x.png');
    expect(b).toMatch(/^image-attachments\/site_1_x_[A-Za-z0-9]{7}\.png$/);
    expect(readFileSync(join(root, a), 'utf8')).toBe('a');
    expect(readFileSync(join(root, b), 'utf8')).toBe('b');
    const long = await storeFile(root, 'image-attachments', `site_1_${'n'.repeat(200)}.jpeg`, Buffer.from('c'));
    expect(long.length).toBe(100);
    expect(long.endsWith('.jpeg')).toBe(true);
    const oddExt = await storeFile(root, 'image-attachments', `site_1_a.${'e'.repeat(200)}`, Buffer.from('d'));
    expect(oddExt.length).toBe(100);
    expect(readdirSync(join(root, 'image-attachments')).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('removes a stored file, and one already gone quietly', async () => {
    const name = await storeFile(root, 'image-attachments', 'gone.png', Buffer.from('x'));
    await removeFile(root, name);
    expect(existsSync(join(root, name))).toBe(false);
    await expect(removeFile(root, name)).resolves.toBeUndefined();
  });

  it.each([
    '../x',
    'image-attachments/../x',
    'image-attachments/.upload-1.tmp',
    '/etc/passwd',
    'a/b/c',
    'image-attachments/',
    'IMAGES/x.png',
    'image-attachments/a\\b',
  ])('resolves no path for %s', (name) => {
    expect(resolveStored(root, name)).toBeNull();
  });
});
