// A stand-in for main's model commands in component tests.
import type { AppEvent } from '@shared/events';
import type { IpcResult, ModelInfo, ModelListing, SuikoujiApi } from '@shared/ipc/index';

// The renderer's ModelsApi, spelled from the shared contract: importing models.svelte.ts here
// would drag its runes into the node type check of test/.
type ModelsApi = Pick<
  SuikoujiApi,
  'modelList' | 'modelDownload' | 'modelCancel' | 'modelDelete' | 'modelActivate' | 'modelSetSource' | 'modelUseFolder' | 'onEvent'
>;

type Result = Promise<IpcResult<ModelListing>>;

export const SMALL_MODEL: ModelInfo = {
  id: 'sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23',
  name: '中文流式识别（小，约 74 MB）',
  description: '适合记账口述',
  downloadBytes: 74_004_050,
  state: 'absent',
  diskBytes: null,
  active: false,
  progress: null,
  error: null,
  recommended: true,
};

/**
 * Answers like main: a download stays pending until the test finishes or fails it (progress
 * is pushed with `emit`); cancel ends it with `cancelled`. Every command is recorded.
 */
export class FakeModelsApi implements Omit<ModelsApi, 'onEvent'> {
  calls: { name: string; input: unknown }[] = [];
  listing: ModelListing = { models: [{ ...SMALL_MODEL }], folder: null, dir: '/data/models', ready: false };
  /** The folder the next 「使用已有模型文件夹」 picks; null: the user closes the dialog. */
  pickedFolder: string | null = null;
  failNext: { code: string; message: string } | null = null;
  #download: { resolve: (result: IpcResult<ModelListing>) => void } | null = null;

  constructor(private readonly emit: (event: AppEvent) => void) {}

  get downloading(): boolean {
    return this.#download !== null;
  }

  #record(name: string, input: unknown): IpcResult<ModelListing> | null {
    this.calls.push({ name, input });
    const failure = this.failNext;
    this.failNext = null;
    return failure ? { ok: false, error: failure } : null;
  }

  #set(id: string, change: Partial<ModelInfo>): void {
    this.listing = { ...this.listing, models: this.listing.models.map((m) => (m.id === id ? { ...m, ...change } : m)) };
  }

  #ok(): IpcResult<ModelListing> {
    return { ok: true, value: structuredClone(this.listing) };
  }

  /** The download completes: the model is installed and active. */
  finishDownload(id = SMALL_MODEL.id): void {
    this.#set(id, { state: 'ready', active: true, diskBytes: 80_000_000, progress: null });
    this.listing.ready = true;
    this.emit({ channel: 'models', event: { type: 'state', id, state: 'ready', error: null } });
    this.#download?.resolve(this.#ok());
    this.#download = null;
  }

  failDownload(code: string, message: string, id = SMALL_MODEL.id): void {
    this.#set(id, { state: 'failed', error: { code, message }, progress: null });
    this.emit({ channel: 'models', event: { type: 'state', id, state: 'failed', error: { code, message } } });
    this.#download?.resolve({ ok: false, error: { code, message } });
    this.#download = null;
  }

  modelList = async (input: Record<string, never>): Result => this.#record('modelList', input) ?? this.#ok();

  modelDownload = (input: { id: string }): Result => {
    const failure = this.#record('modelDownload', input);
    if (failure) return Promise.resolve(failure);
    this.#set(input.id, { state: 'downloading', error: null });
    return new Promise((resolve) => (this.#download = { resolve }));
  };

  modelCancel = async (input: { id: string }): Result => {
    const failure = this.#record('modelCancel', input);
    if (failure) return failure;
    this.#set(input.id, { state: 'absent', progress: null });
    this.#download?.resolve({ ok: false, error: { code: 'cancelled', message: '已取消下载' } });
    this.#download = null;
    return this.#ok();
  };

  modelDelete = async (input: { id: string }): Result => {
    const failure = this.#record('modelDelete', input);
    if (failure) return failure;
    this.#set(input.id, { state: 'absent', active: false, diskBytes: null });
    this.listing.ready = false;
    return this.#ok();
  };

  modelActivate = async (input: { id: string }): Result => {
    const failure = this.#record('modelActivate', input);
    if (failure) return failure;
    this.listing = { ...this.listing, models: this.listing.models.map((m) => ({ ...m, active: m.id === input.id })), ready: true };
    return this.#ok();
  };

  modelSetSource = async (input: { source: NonNullable<ModelListing['source']> }): Result => {
    const failure = this.#record('modelSetSource', input);
    if (failure) return failure;
    this.listing = { ...this.listing, source: input.source };
    return this.#ok();
  };

  modelUseFolder = async (input: { path?: string }): Promise<IpcResult<ModelListing & { cancelled?: boolean }>> => {
    const failure = this.#record('modelUseFolder', input);
    if (failure) return failure;
    if (this.pickedFolder === null) return { ok: true, value: { ...structuredClone(this.listing), cancelled: true } };
    this.listing = {
      ...this.listing,
      models: this.listing.models.map((m) => ({ ...m, active: false })),
      folder: { path: this.pickedFolder, diskBytes: 5_000_000, active: true },
      ready: true,
    };
    return this.#ok();
  };
}
