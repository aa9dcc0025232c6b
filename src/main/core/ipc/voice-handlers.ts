import type { VoiceMode } from '@shared/domain';
import type { VoiceAction, VoiceSnapshot } from '@shared/ipc/index';
import type { VOICE_COMMANDS } from '@shared/ipc/voice.names';
import { CommandError, type AreaHandlers } from './types';

type VoiceCommand = (typeof VOICE_COMMANDS)[number];

/**
 * What the session commands need from the voice side: the running orchestrator behind a
 * small facade (the shell owns its lifetime, restart creates a brand-new session).
 */
export interface VoiceController {
  snapshot(): VoiceSnapshot;
  start(mode?: VoiceMode): Promise<void>;
  setMode(mode: VoiceMode): Promise<void>;
  submitText(text: string): Promise<void>;
  /** `endOnSilence`: a press-to-start key; the VAD's end of speech releases it. */
  pushToTalk(action: 'down' | 'up', options?: { endOnSilence?: boolean }): Promise<void>;
  act(action: VoiceAction): Promise<void>;
}

export interface VoiceHandlerDeps {
  /** Absent while the voice session could not be created (the error says why). */
  voice?: VoiceController;
  voiceUnavailableReason?: string;
}

export function createVoiceHandlers(deps: VoiceHandlerDeps): AreaHandlers<VoiceCommand> {
  const voice = (): VoiceController => {
    if (!deps.voice) throw new CommandError('voice_unavailable', deps.voiceUnavailableReason ?? '语音会话尚未就绪，请稍后再试。');
    return deps.voice;
  };
  return {
    voiceSnapshot: () => voice().snapshot(),
    voiceStart: async (input) => {
      await voice().start(input.mode);
      return voice().snapshot();
    },
    voiceSetMode: async (input) => {
      await voice().setMode(input.mode);
      return voice().snapshot();
    },
    voiceText: async (input) => {
      await voice().submitText(input.text);
      return voice().snapshot();
    },
    voicePushToTalk: async (input) => {
      await voice().pushToTalk(input.action, input.endOnSilence ? { endOnSilence: true } : {});
      return voice().snapshot();
    },
    voiceAction: async (input) => {
      await voice().act(input);
      return voice().snapshot();
    },
  };
}
