// What a drop or a paste carries, decided before anything is read: a picture goes to main
// (which sniffs its bytes and names a format it cannot read, HEIC included), anything else is
// refused here in one line so a video or a PDF is never read into memory.

/** Names a picture may have even when the OS gives no MIME type (HEIC on Linux, a WebP from a folder). */
const PICTURE_NAME = /\.(?:png|jpe?g|jfif|webp|heic|heif|avif|gif|bmp|tiff?)$/i;

const EXTENSION_OF: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

export type Carried = { kind: 'picture'; file: File } | { kind: 'other'; name: string } | null;

export function isPictureFile(file: Pick<File, 'name' | 'type'>): boolean {
  return file.type.startsWith('image/') || PICTURE_NAME.test(file.name);
}

/** The first file a drop or paste carries, as a picture or not; null when it carries no file (text). */
export function carriedFile(data: DataTransfer | null): Carried {
  if (!data) return null;
  const files: File[] = Array.from(data.files ?? []);
  // A screenshot on the clipboard may show up only as an item, not in `files`.
  if (files.length === 0) {
    for (const item of Array.from(data.items ?? [])) {
      const file = item.kind === 'file' ? item.getAsFile() : null;
      if (file) files.push(file);
    }
  }
  const picture = files.find(isPictureFile);
  if (picture) return { kind: 'picture', file: picture };
  const first = files[0];
  return first ? { kind: 'other', name: first.name } : null;
}

/** True while a drag carries files (the names are hidden until the drop). */
export function dragHasFiles(data: DataTransfer | null): boolean {
  return !!data && Array.from(data.types ?? []).includes('Files');
}

/**
 * The name the card shows for a picture: a file keeps its own; a screenshot on the clipboard
 * (which Chromium names image.png) is named for where it came from.
 */
export function pictureName(file: Pick<File, 'name' | 'type'>, source: 'drop' | 'paste'): string {
  if (!file.name || (source === 'paste' && /^image\.\w+$/.test(file.name))) return `粘贴的图片.${EXTENSION_OF[file.type] ?? 'png'}`;
  return file.name;
}

export function notPictureText(name: string): string {
  return `「${name}」不是图片：请用 PNG、JPEG 或 WebP 格式的截图或照片。`;
}

export function tooLargeText(name: string, maxBytes: number): string {
  return `「${name}」太大（超过 ${Math.round(maxBytes / 1024 / 1024)} MB），请用截图或缩小后的照片。`;
}
