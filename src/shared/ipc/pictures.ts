import { z } from 'zod';
import type { PICTURE_COMMANDS } from './pictures.names';
import type { VoiceSnapshot } from './voice';

/**
 * The largest picture the app reads: far beyond any phone screenshot or receipt photo, small
 * enough that a wrong file dropped on the window is refused before it is copied anywhere.
 */
export const MAX_PICTURE_BYTES = 30 * 1024 * 1024;

export const pictureSchemas = {
  pictureSupport: z.object({}).strict(),
  /** A dropped or pasted picture (the renderer sends its bytes; it has no path). */
  pictureRead: z
    .object({
      bytes: z
        .instanceof(Uint8Array, { message: '图片数据无效' })
        .refine((bytes) => bytes.byteLength > 0, '图片是空的')
        .refine((bytes) => bytes.byteLength <= MAX_PICTURE_BYTES, '图片太大（超过 30 MB）'),
      name: z.string().max(260),
    })
    .strict(),
  /** 打开图片…: main shows the open dialog. */
  pictureOpen: z.object({}).strict(),
  attachmentGet: z.object({ transactionId: z.string().min(1).max(64) }).strict(),
} satisfies Record<(typeof PICTURE_COMMANDS)[number], z.ZodType>;

/** Whether pictures can be read on this computer; `reason` (Chinese) is for 设置 when not. */
export interface PictureSupport {
  available: boolean;
  reason: string | null;
}

/** The picture kept with an entry, and the text read off it. */
export interface Attachment {
  mime: string;
  bytes: Uint8Array;
  text: string;
}

export interface PictureOutputs {
  pictureSupport: PictureSupport;
  pictureRead: VoiceSnapshot;
  /** Null when the dialog was closed. */
  pictureOpen: VoiceSnapshot | null;
  attachmentGet: Attachment | null;
}
