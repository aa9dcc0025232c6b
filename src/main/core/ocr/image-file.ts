// What a picture handed to the recognizer is, from its first bytes: the formats it reads get
// through; everything else is refused with one line the user can act on, before a worker
// spends a second of CPU on it. Pure: no decoding here (the worker's sharp does that).

export type ImageFormat = 'png' | 'jpeg' | 'webp';

/** A picture the recognizer will not read. The message is shown to the user as it is: Chinese, one line. */
export class PictureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PictureError';
  }
}

/** A phone photo is 2–12 MB, a screenshot under 5; anything far past that is not a picture worth decoding. */
export const MAX_PICTURE_BYTES = 30 * 1024 * 1024;

export const PICTURE_MESSAGES = {
  empty: '这个文件是空的，不是图片',
  heic: '这是 HEIC 格式的照片，请先转成 JPG 再试',
  unsupported: '只能读取 PNG、JPEG 或 WebP 格式的图片',
  damaged: '图片无法读取，可能已损坏',
  tooManyPixels: '图片尺寸太大（超过 6000 万像素），请缩小后再试',
  tooLarge: (bytes: number) => `图片太大（${(bytes / 1024 / 1024).toFixed(1)} MB），只能读取 ${MAX_PICTURE_BYTES / 1024 / 1024} MB 以内的图片`,
} as const;

// HEIF's brands (ISO/IEC 23008-12): iPhones write heic; mif1/msf1 are the generic image and
// sequence brands, which AVIF files also carry — those name avif among their brands.
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
}

/** The brands of an ISO base media file (its ftyp box: major brand, then the compatible ones), or null. */
function isoBrands(bytes: Uint8Array): string[] | null {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const size = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  const end = Math.min(bytes.length, Math.max(16, size));
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
  return brands;
}

/** The format of a picture the recognizer reads; throws PictureError with the user's line for anything else. */
export function sniffImage(bytes: Uint8Array): ImageFormat {
  if (bytes.length === 0) throw new PictureError(PICTURE_MESSAGES.empty);
  if (bytes.length > MAX_PICTURE_BYTES) throw new PictureError(PICTURE_MESSAGES.tooLarge(bytes.length));
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  const brands = isoBrands(bytes);
  if (brands && brands.some((b) => HEIF_BRANDS.has(b)) && !brands.some((b) => AVIF_BRANDS.has(b))) {
    throw new PictureError(PICTURE_MESSAGES.heic);
  }
  throw new PictureError(PICTURE_MESSAGES.unsupported);
}
