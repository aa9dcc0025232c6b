import type { AppEvent } from '@shared/events';
import type { IpcResult, ModelEvent, ModelInfo, ModelListing, SuikoujiApi } from '@shared/ipc/index';
import { MODEL_SOURCE_LABELS, type ModelSourceId } from '@shared/ipc/models';

/** The model commands and the event stream (a fake in component tests). */
export type ModelsApi = Pick<
  SuikoujiApi,
  'modelList' | 'modelDownload' | 'modelCancel' | 'modelDelete' | 'modelActivate' | 'modelSetSource' | 'modelUseFolder' | 'onEvent'
>;

/**
 * The renderer's view of the speech models in main: the listing from a command, kept up to date
 * by `models` events (progress, state changes) so every window shows the same download.
 */
export class SpeechModels {
  listing = $state<ModelListing | null>(null);
  /** The last failure of a command, in Chinese (download errors also arrive on the model itself). */
  problem = $state<string | null>(null);
  /** Why a download left its last source, per model (cleared when it ends). */
  switchReasons = $state<Record<string, string>>({});

  #api: ModelsApi;
  #active = true;
  #unsubscribe: (() => void) | null = null;

  constructor(api: ModelsApi) {
    this.#api = api;
  }

  /** Subscribes and loads; returns the dispose function. */
  connect(): () => void {
    this.#unsubscribe = this.#api.onEvent((event: AppEvent) => {
      if (event.channel === 'models') this.apply(event.event);
    });
    void this.load();
    return () => this.dispose();
  }

  dispose(): void {
    this.#active = false;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  get ready(): boolean {
    return this.listing?.ready ?? false;
  }

  /** The model a first use offers: the catalog's suggestion, else the first one. */
  get suggested(): ModelInfo | null {
    const models = this.listing?.models ?? [];
    return models.find((m) => m.recommended) ?? models[0] ?? null;
  }

  find(id: string): ModelInfo | null {
    return this.listing?.models.find((m) => m.id === id) ?? null;
  }

  async load(): Promise<boolean> {
    return this.#take(await this.#call(() => this.#api.modelList({})), false);
  }

  apply(event: ModelEvent): void {
    if (!this.#active || !this.listing) return;
    if (event.type === 'changed') {
      void this.load();
      return;
    }
    const models = this.listing.models.map((m): ModelInfo => {
      if (m.id !== event.id) return m;
      // A new source keeps the bar where it is: the bytes already on disk still count.
      if (event.type === 'source') {
        this.switchReasons = event.reason ? { ...this.switchReasons, [m.id]: event.reason } : this.switchReasons;
        return { ...m, source: event.source };
      }
      if (event.type === 'progress')
        return { ...m, state: m.state === 'absent' || m.state === 'failed' ? 'downloading' : m.state, progress: event.progress, error: null };
      const settled = event.state === 'ready' || event.state === 'absent' || event.state === 'failed';
      if (settled && this.switchReasons[m.id])
        this.switchReasons = Object.fromEntries(Object.entries(this.switchReasons).filter(([id]) => id !== m.id));
      return { ...m, state: event.state, error: event.error, progress: settled ? null : m.progress };
    });
    this.listing = { ...this.listing, models };
  }

  /**
   * Resolves true once the model is ready; progress shows meanwhile through events.
   * `acceptUnverified`: the user agreed to a source without a published SHA-256 (asked once).
   */
  download(id: string, acceptUnverified = false): Promise<boolean> {
    this.#mark(id, { state: 'downloading', error: null });
    return this.#run(() => this.#api.modelDownload(acceptUnverified ? { id, acceptUnverified: true } : { id }));
  }

  /** The source tried first from now on; a download under way moves to it at once. */
  setSource(source: ModelSourceId): Promise<boolean> {
    return this.#run(() => this.#api.modelSetSource({ source }));
  }

  /** The source a model downloads from now, or would start with. */
  sourceOf(model: ModelInfo): ModelSourceId | null {
    return model.source ?? model.sources?.[0]?.id ?? null;
  }

  /** The next of the model's sources after the one in use (wrapping), for 「换一个下载源」. */
  nextSourceOf(model: ModelInfo): ModelSourceId | null {
    const sources = model.sources ?? [];
    if (sources.length < 2) return null;
    const at = sources.findIndex((s) => s.id === this.sourceOf(model));
    return sources[(at + 1) % sources.length]!.id;
  }

  /** The model may only be downloaded after the user agrees to an unverified source. */
  needsConsent(model: ModelInfo): boolean {
    return model.unverified === true || model.error?.code === 'unverified';
  }

  cancel(id: string): Promise<boolean> {
    return this.#run(() => this.#api.modelCancel({ id }));
  }

  remove(id: string): Promise<boolean> {
    return this.#run(() => this.#api.modelDelete({ id }));
  }

  activate(id: string): Promise<boolean> {
    return this.#run(() => this.#api.modelActivate({ id }));
  }

  /** Opens the folder chooser in main; false when it failed or the user closed it. */
  async useFolder(): Promise<boolean> {
    const result = await this.#call(() => this.#api.modelUseFolder({}));
    return this.#take(result) && result.ok && !result.value.cancelled;
  }

  async #run(command: () => Promise<IpcResult<ModelListing>>): Promise<boolean> {
    return this.#take(await this.#call(command));
  }

  async #call<T>(command: () => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
    try {
      return await command();
    } catch {
      return { ok: false, error: { code: 'ipc_failed', message: '与应用主进程的连接中断，请重启随口记。' } };
    }
  }

  /**
   * `command`: the answer to a user's command, whose failure is shown until the next command
   * (the listing is read again after it, as main may have changed it); else a plain reload.
   */
  #take(result: IpcResult<ModelListing>, command = true): boolean {
    if (!this.#active) return result.ok;
    if (!result.ok) {
      // A cancelled download is what the user asked for, not a problem to show.
      this.problem = result.error.code === 'cancelled' ? null : result.error.message;
      if (command) void this.load();
      return false;
    }
    if (command) this.problem = null;
    this.listing = result.value;
    return true;
  }

  #mark(id: string, change: Partial<ModelInfo>): void {
    if (!this.listing) return;
    this.listing = { ...this.listing, models: this.listing.models.map((m) => (m.id === id ? { ...m, ...change } : m)) };
  }
}

/** 「GitHub」「HF 镜像（hf-mirror.com）」…: a source as the user sees it. */
export function sourceLabel(source: ModelSourceId | null | undefined): string {
  return source ? MODEL_SOURCE_LABELS[source] : '';
}
