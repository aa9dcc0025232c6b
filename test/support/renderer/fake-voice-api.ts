import type { VoiceMode, VoiceState } from '@shared/domain';
import type { AppEvent } from '@shared/events';
import type { IpcResult, SuikoujiApi, VoiceSnapshot } from '@shared/ipc/index';
import { Listeners } from '@shared/listeners';

// The same commands as the renderer's VoiceApi, spelled from the shared contract: importing
// session.svelte.ts here would drag its runes into the node type check of test/.
type VoiceApi = Pick<SuikoujiApi, 'voiceSnapshot' | 'voiceStart' | 'voiceSetMode' | 'voiceText' | 'voicePushToTalk' | 'voiceAction' | 'onEvent'>;

/**
 * A stand-in for the main process in component tests: records every command, answers with
 * the snapshot the test sets, and lets the test push events as main would.
 */
export class FakeVoiceApi implements VoiceApi {
  calls: { name: string; input: unknown }[] = [];
  snapshot: VoiceSnapshot = { state: 'idle', mode: 'auto', batch: null, online: true, conversation: [], summary: null };
  failNext: { code: string; message: string } | null = null;
  // A throwing listener fails the test instead of being logged, as the app's hub would.
  #listeners = new Listeners<{ event: (event: AppEvent) => void }>((error) => {
    throw error;
  });

  emit(event: AppEvent): void {
    this.#listeners.emit('event', event);
  }

  get listenerCount(): number {
    return this.#listeners.count('event');
  }

  set(state: VoiceState, extra: Partial<Omit<VoiceSnapshot, 'state'>> = {}): void {
    this.snapshot = { ...this.snapshot, state, ...extra };
  }

  onEvent = (listener: (event: AppEvent) => void) => this.#listeners.on('event', listener);

  #answer(name: string, input: unknown): Promise<IpcResult<VoiceSnapshot>> {
    this.calls.push({ name, input });
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      return Promise.resolve({ ok: false, error });
    }
    return Promise.resolve({ ok: true, value: structuredClone(this.snapshot) });
  }

  voiceSnapshot = (input: Record<string, never>) => this.#answer('voiceSnapshot', input);
  voiceStart = (input: { mode?: VoiceMode }) => this.#answer('voiceStart', input);
  voiceSetMode = (input: { mode: VoiceMode }) => this.#answer('voiceSetMode', input);
  voiceText = (input: { text: string }) => this.#answer('voiceText', input);
  voicePushToTalk = (input: { action: 'down' | 'up' }) => this.#answer('voicePushToTalk', input);
  voiceAction = (input: Parameters<VoiceApi['voiceAction']>[0]) => this.#answer('voiceAction', input);
}
