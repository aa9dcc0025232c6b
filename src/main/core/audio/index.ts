// Microphone + VAD: what the orchestrator and the `voice` tool use.
export { listInputDevices, type InputDevice } from './capture';
export { createVoiceInput, type MicVoiceInput, type MicVoiceInputEvents, type VoiceInputOptions } from './voice-input';
export { VoiceIoFailure } from './errors';
export { SpeechSegmenter, SEGMENTER_DEFAULTS, SILENCE_MS_RANGE, type SegmenterEvent, type SegmenterOptions } from './segmenter';
export { VadClassifier, VAD_WINDOW_MS, type VadMode } from './vad';
export { segmentPcm, type Utterance } from './segment-pcm';
export { parseWav, encodeWav, requireSpeechFormat } from './wav';
export { SAMPLE_RATE, type FrameMs } from './pcm';
