// The on-device speech models: a catalog of sherpa-onnx streaming Chinese models, download
// with progress and resume, extraction, verification, a smoke decode, and the active model.
export type { ModelErrorCode, ModelManager } from './types';
export { createModelManager, type ModelManagerOptions } from './manager';
export { ModelError } from './errors';
export { CATALOG, type CatalogEntry } from './catalog';
export type { ModelRuntime } from './verify';
