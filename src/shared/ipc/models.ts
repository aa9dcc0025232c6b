import { z } from 'zod';
import type { MODEL_COMMANDS } from './models.names';

/** A catalog model's id: the folder name sherpa-onnx publishes it under, never a path. */
export const modelIdSchema = z
  .string()
  .max(120)
  .regex(/^[a-z0-9][a-z0-9._-]*$/i, '不是有效的模型名称');

/** A folder on this machine: absolute (POSIX, drive letter or UNC), never relative to the app's working folder. */
const folderPathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((path) => !path.includes('\0'), '路径含有无效字符')
  .refine((path) => /^(?:\/|[a-z]:[\\/]|\\\\)/i.test(path), '请选择文件夹的完整路径');

/** Where a model can be downloaded from; the catalog says which of these each model has. */
export const MODEL_SOURCE_IDS = ['github', 'huggingface', 'hf-mirror', 'modelscope'] as const;
export type ModelSourceId = (typeof MODEL_SOURCE_IDS)[number];

export const MODEL_SOURCE_LABELS: Record<ModelSourceId, string> = {
  github: 'GitHub',
  huggingface: 'Hugging Face',
  'hf-mirror': 'HF 镜像（hf-mirror.com）',
  modelscope: '魔搭社区（ModelScope）',
};

export const modelSchemas = {
  modelList: z.object({}).strict(),
  /** Starts (or resumes) the download; progress arrives as `models` events. Resolves when ready. */
  modelDownload: z.object({ id: modelIdSchema, acceptUnverified: z.boolean().optional() }).strict(),
  /** The source tried first (设置); a download under way switches to it at once. */
  modelSetSource: z.object({ source: z.enum(MODEL_SOURCE_IDS) }).strict(),
  modelCancel: z.object({ id: modelIdSchema }).strict(),
  /** Deletes an installed catalog model (the active one too: local recognition then needs a model again). */
  modelDelete: z.object({ id: modelIdSchema }).strict(),
  /** Makes an installed catalog model the one local recognition uses. */
  modelActivate: z.object({ id: modelIdSchema }).strict(),
  /**
   * Uses a folder the user already has (chosen in the shell's native folder dialog when `path`
   * is absent; a path for tests and the e2e bridge). Checked and smoke-decoded before use.
   */
  modelUseFolder: z.object({ path: folderPathSchema.optional() }).strict(),
} satisfies Record<(typeof MODEL_COMMANDS)[number], z.ZodType>;

export type ModelState = 'absent' | 'downloading' | 'extracting' | 'verifying' | 'ready' | 'failed';

export interface ModelProgress {
  /** Bytes of the archive on disk so far (a resumed download starts above 0). */
  receivedBytes: number;
  /** Archive size from the server (or the catalog when the server does not say). */
  totalBytes: number;
  /** 0–100, one decimal. */
  percent: number;
  /** Averaged over the last seconds; 0 before the first bytes. */
  bytesPerSecond: number;
  /** The source the bytes come from now. */
  source?: ModelSourceId;
}

export interface ModelSourceInfo {
  id: ModelSourceId;
  label: string;
  /** Every byte it installs is checked against a published SHA-256. */
  pinned: boolean;
  /** Its URL was confirmed from the model's own public material. */
  confirmed: boolean;
}

export interface ModelInfo {
  id: string;
  /** Chinese display name, e.g. 「中文流式（小，约 25 MB）」. */
  name: string;
  /** One line on what it is good for. */
  description: string;
  /** Download size of the archive in bytes (from the catalog). */
  downloadBytes: number;
  state: ModelState;
  /** Bytes the installed model takes on disk; null when not installed. */
  diskBytes: number | null;
  /** The model local recognition uses now. */
  active: boolean;
  /** Set while downloading or extracting. */
  progress: ModelProgress | null;
  /** The last failure, in Chinese; cleared by the next attempt. */
  error: { code: string; message: string } | null;
  /** The catalog's suggestion for first use. */
  recommended: boolean;
  /** Bytes of an interrupted download kept on disk; the next download resumes from there. */
  partialBytes?: number;
  /** Where this model can be downloaded from, in the order they will be tried. */
  sources?: ModelSourceInfo[];
  /** The source in use while downloading. */
  source?: ModelSourceId | null;
  /** No source with a SHA-256 pin is available to it: the user is asked once before it is used. */
  unverified?: boolean;
}

export interface ModelListing {
  models: ModelInfo[];
  /** A folder chosen with 「使用已有模型文件夹」, when that is what local recognition uses. */
  folder: { path: string; diskBytes: number; active: boolean } | null;
  /** Folder holding downloaded models. */
  dir: string;
  /** True when local recognition has a model it can load. */
  ready: boolean;
  /** The source chosen in 设置 (null: the catalog's order). */
  source?: ModelSourceId | null;
  /** Every source a model here has, for the chooser in 设置. */
  sourceChoices?: { id: ModelSourceId; label: string }[];
}

/** Pushed on the `models` event channel while a model changes state. */
export type ModelEvent =
  | { type: 'progress'; id: string; progress: ModelProgress }
  | { type: 'state'; id: string; state: ModelState; error: { code: string; message: string } | null }
  /** The download moved to another source (`reason`: why the last one was left, in Chinese). */
  | { type: 'source'; id: string; source: ModelSourceId; reason: string | null }
  | { type: 'changed' };

export interface ModelOutputs {
  modelList: ModelListing;
  modelDownload: ModelListing;
  modelCancel: ModelListing;
  modelDelete: ModelListing;
  modelActivate: ModelListing;
  modelSetSource: ModelListing;
  /** `cancelled` when the user closed the folder dialog without choosing. */
  modelUseFolder: ModelListing & { cancelled?: boolean };
}
