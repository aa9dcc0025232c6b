import { describe, expect, it } from 'vitest';
import { MAX_PICTURE_BYTES, PictureError, sniffImage, type ImageFormat } from './image-file';

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)));

/** An ISO base media file's first box: size, 'ftyp', the major brand, a version, then compatible brands. */
const ftyp = (major: string, ...compatible: string[]) =>
  bytes([0, 0, 0, 16 + 4 * compatible.length], 'ftyp', major, [0, 0, 0, 0], ...compatible, [0, 0, 0, 8], 'meta');

const HEIC = '这是 HEIC 格式的照片，请先转成 JPG 再试';
const ONLY = '只能读取 PNG、JPEG 或 WebP 格式的图片';

// Each file as its first bytes say it is, and what the user is told when it is not read.
const CASES: { name: string; file: Uint8Array; format?: ImageFormat; message?: string | RegExp }[] = [
  { name: 'PNG', file: bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR'), format: 'png' },
  { name: 'JPEG (JFIF)', file: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF'), format: 'jpeg' },
  { name: 'JPEG (Exif, as phones write it)', file: bytes([0xff, 0xd8, 0xff, 0xe1, 0, 16], 'Exif'), format: 'jpeg' },
  { name: 'WebP', file: bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), format: 'webp' },
  { name: 'HEIC from an iPhone', file: ftyp('heic', 'mif1', 'heic'), message: HEIC },
  { name: 'HEIF with the generic image brand', file: ftyp('mif1', 'heic'), message: HEIC },
  { name: 'HEIF image sequence', file: ftyp('msf1', 'hevc'), message: HEIC },
  { name: 'HEIX (10-bit HEIC)', file: ftyp('heix', 'mif1'), message: HEIC },
  { name: 'AVIF (also mif1, but not HEIC)', file: ftyp('avif', 'mif1', 'miaf'), message: ONLY },
  { name: 'MP4 video', file: ftyp('isom', 'mp41'), message: ONLY },
  { name: 'GIF', file: bytes('GIF89a', [1, 0, 1, 0]), message: ONLY },
  { name: 'BMP', file: bytes('BM', [0x36, 0, 0, 0, 0, 0]), message: ONLY },
  { name: 'TIFF', file: bytes('II*', [0, 8, 0, 0, 0]), message: ONLY },
  { name: 'PDF', file: bytes('%PDF-1.7\n'), message: ONLY },
  { name: 'a text file renamed .png', file: bytes('支付成功 ¥23.90'), message: ONLY },
  { name: 'a PNG cut after its first byte', file: bytes([0x89]), message: ONLY },
  { name: 'an empty file', file: new Uint8Array(0), message: '这个文件是空的，不是图片' },
];

describe('sniffImage', () => {
  it('names PNG, JPEG and WebP by their first bytes, and refuses every other file with one line the user can act on', () => {
    const got = CASES.map(({ name, file }) => {
      try {
        return { name, format: sniffImage(file) };
      } catch (error) {
        expect(error, name).toBeInstanceOf(PictureError);
        return { name, message: (error as Error).message };
      }
    });
    expect(got).toEqual(CASES.map(({ name, format, message }) => (format ? { name, format } : { name, message })));
  });

  it('refuses a file larger than MAX_PICTURE_BYTES, saying how large it is, before reading its bytes', () => {
    const big = new Uint8Array(MAX_PICTURE_BYTES + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(() => sniffImage(big)).toThrow(new PictureError('图片太大（30.0 MB），只能读取 30 MB 以内的图片'));
    expect(sniffImage(big.subarray(0, MAX_PICTURE_BYTES))).toBe('png');
  });
});
