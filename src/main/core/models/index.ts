// The on-device speech models: a catalog of sherpa-onnx streaming Chinese models with several
// download sources each, download with progress, resume and failover, pinned checksums, safe
// extraction, verification, a smoke decode, and the active model. Re-exports only.
export type { ModelErrorCode, ModelManager } from './types';
export { createModelManager, type ModelManagerOptions } from './manager';
export { ModelError } from './errors';
export { CATALOG, type CatalogEntry, type ModelSource } from './catalog';
export type { ModelRuntime } from './verify';
