import type { IpcError, IpcResult, VoiceSnapshot } from '@shared/ipc/index';
import type { PictureSupport } from '@shared/ipc/pictures';
import { FakeVoiceApi } from './fake-voice-api';

/**
 * The voice session's fake with the picture commands: pictureRead and pictureOpen answer with
 * the snapshot the test set (or a scripted refusal), and each may be held until the test lets
 * it go, to look at the page while main is still reading.
 */
export class FakePictureApi extends FakeVoiceApi {
  support: PictureSupport = { available: true, reason: null };
  /** The pictures the page sent, as main received them. */
  pictures: { bytes: Uint8Array; name: string }[] = [];
  pictureFails: IpcError | null = null;
  /** What pictureOpen answers: the dialog's picture read, or null (closed). */
  openAnswer: 'snapshot' | null = 'snapshot';
  #held: (() => void) | null = null;
  #hold = false;

  /** The next pictureRead / pictureOpen waits for release(). */
  holdNext(): void {
    this.#hold = true;
  }

  release(): void {
    this.#held?.();
    this.#held = null;
  }

  async #answer<T>(name: string, input: unknown, value: () => T): Promise<IpcResult<T>> {
    this.calls.push({ name, input });
    if (this.#hold) {
      this.#hold = false;
      await new Promise<void>((resolve) => (this.#held = resolve));
    }
    if (this.pictureFails) {
      const error = this.pictureFails;
      this.pictureFails = null;
      return { ok: false, error };
    }
    return { ok: true, value: value() };
  }

  pictureSupport = (input: Record<string, never>) => this.#answer('pictureSupport', input, () => ({ ...this.support }));

  pictureRead = (input: { bytes: Uint8Array; name: string }) => {
    this.pictures.push({ bytes: input.bytes, name: input.name });
    return this.#answer('pictureRead', { name: input.name, size: input.bytes.byteLength }, () => structuredClone(this.snapshot));
  };

  pictureOpen = (input: Record<string, never>) =>
    this.#answer<VoiceSnapshot | null>('pictureOpen', input, () => (this.openAnswer ? structuredClone(this.snapshot) : null));
}
