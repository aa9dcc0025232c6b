// On-device streaming recognition with sherpa-onnx: the model is loaded once in a worker
// thread; each utterance gets its own stream behind the same AsrClient port the cloud engines use.
export type { LocalAsrEngine, LocalAsrEngineOptions, LocalModelFiles } from './types';
export { detectModelFiles } from './model-files';
export { createLocalAsrEngine, decodeWavFile, type LocalAsrEngineDebugOptions, type LocalAsrResult } from './engine';
