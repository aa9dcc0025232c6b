import type { IpcResult, SuikoujiApi, VoiceSnapshot } from '@shared/ipc/index';
import { MAX_PICTURE_BYTES, type PictureSupport } from '@shared/ipc/pictures';
import { carriedFile, notPictureText, pictureName, tooLargeText } from './picture-files';

/** The picture commands a page needs (absent in a page test that leaves pictures out). */
export type PictureApi = Pick<SuikoujiApi, 'pictureSupport' | 'pictureRead' | 'pictureOpen'>;

const LOST = '与应用主进程的连接中断，请重启随口记。';

/**
 * A page's picture input: whether this computer reads pictures, the one picture being read
 * and the last line about it. The drafts themselves are the session's: a picture's answer is
 * a session snapshot, handed on like a typed sentence's.
 */
export class PictureInput {
  /** Null until main answers: the entry points stay hidden meanwhile. */
  support = $state<PictureSupport | null>(null);
  /** While main reads a picture (the window keeps answering: recognition runs in a worker). */
  busy = $state(false);
  /** One line for the user: main's refusal, or a file that is no picture. */
  error = $state<string | null>(null);

  #api: PictureApi | null;
  #onSnapshot: (snapshot: VoiceSnapshot) => void;
  #active = true;
  /** Settles once main said whether pictures are read here (or could not say). */
  #supportKnown: Promise<void> = Promise.resolve();

  constructor(api: Partial<PictureApi>, onSnapshot: (snapshot: VoiceSnapshot) => void) {
    this.#api = api.pictureSupport && api.pictureRead && api.pictureOpen ? (api as PictureApi) : null;
    this.#onSnapshot = onSnapshot;
  }

  get available(): boolean {
    return this.support?.available === true;
  }

  connect(): () => void {
    this.#supportKnown =
      this.#api
        ?.pictureSupport({})
        .then((result) => {
          if (this.#active && result.ok) this.support = result.value;
        })
        .catch(() => {}) ?? Promise.resolve();
    return () => {
      this.#active = false;
    };
  }

  /**
   * A drop, or a paste that is not text for a text field: true when it carried a file, which
   * this then takes (the caller stops the browser's own handling).
   */
  accept(data: DataTransfer | null, source: 'drop' | 'paste'): boolean {
    if (!this.#api) return false;
    const carried = carriedFile(data);
    if (!carried) return false;
    if (carried.kind === 'other') {
      this.error = notPictureText(carried.name);
      return true;
    }
    const name = pictureName(carried.file, source);
    // A picture dropped the moment the page opened waits for main's answer.
    if (this.support === null) void this.#supportKnown.then(() => this.#take(carried.file, name));
    else this.#take(carried.file, name);
    return true;
  }

  #take(file: File, name: string): void {
    if (!this.#active) return;
    if (this.available) void this.read(file, name);
    else this.error = `这台电脑不能识别图片：${this.support?.reason ?? '缺少识别组件'}`;
  }

  /** Reads a picture's bytes here (main never opens a path the renderer names) and sends them. */
  read(file: Blob, name: string): Promise<boolean> {
    // Refused before it is read into memory (main refuses it too).
    if (file.size > MAX_PICTURE_BYTES) {
      this.error = tooLargeText(name, MAX_PICTURE_BYTES);
      return Promise.resolve(false);
    }
    return this.#run(async (api) => api.pictureRead({ bytes: new Uint8Array(await file.arrayBuffer()), name }));
  }

  /** 打开图片…: main's own file dialog; closing it says nothing. */
  open(): Promise<boolean> {
    return this.#run((api) => api.pictureOpen({}));
  }

  async #run(command: (api: PictureApi) => Promise<IpcResult<VoiceSnapshot | null>>): Promise<boolean> {
    const api = this.#api;
    // One picture at a time: a second one while the first is read would race it onto the card.
    if (!api || this.busy) return false;
    this.busy = true;
    this.error = null;
    let result: IpcResult<VoiceSnapshot | null>;
    try {
      result = await command(api);
    } catch {
      result = { ok: false, error: { code: 'ipc_failed', message: LOST } };
    }
    if (!this.#active) return result.ok;
    this.busy = false;
    if (!result.ok) {
      this.error = result.error.message;
      return false;
    }
    if (result.value) this.#onSnapshot(result.value);
    return true;
  }
}
