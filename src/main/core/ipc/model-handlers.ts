import { CodedError } from '@shared/errors';
import type { MODEL_COMMANDS } from '@shared/ipc/models.names';
import type { ModelErrorCode, ModelManager } from '../models/index';
import { CommandError, type AreaHandlers } from './types';

export interface ModelHandlerDeps {
  /** Absent in a core built without on-device recognition (tools, old tests); the commands then say so. */
  models?: ModelManager;
  /** The shell's native folder dialog: the chosen folder, or null when the user closed it. */
  pickFolder?: () => Promise<string | null>;
}

type ModelCommand = (typeof MODEL_COMMANDS)[number];

const MODEL_ERROR_CODES: ReadonlySet<string> = new Set<ModelErrorCode>([
  'network',
  'not_found',
  'http_error',
  'disk_full',
  'corrupt_archive',
  'incomplete',
  'refused',
  'cancelled',
  'busy',
  'unknown_model',
  'io_error',
  'stalled',
  'too_large',
  'redirect_refused',
  'certificate',
  'checksum',
  'unsafe_archive',
  'unverified',
  'unknown_source',
]);

export function createModelHandlers(deps: ModelHandlerDeps): AreaHandlers<ModelCommand> {
  const models = (): ModelManager => {
    if (!deps.models) throw new CommandError('models_unavailable', '本地语音识别暂不可用，请重启应用后再试。');
    return deps.models;
  };
  // The manager's failures already carry a Chinese sentence; anything else is a bug and is logged by the dispatch.
  const coded = async <T>(task: () => T | Promise<T>): Promise<T> => {
    try {
      return await task();
    } catch (err) {
      if (err instanceof CodedError && MODEL_ERROR_CODES.has(err.code)) throw new CommandError(err.code, err.message);
      throw err;
    }
  };
  return {
    modelList: () => models().list(),
    modelDownload: (input) => coded(() => models().download(input.id, { acceptUnverified: input.acceptUnverified })),
    modelSetSource: (input) => coded(() => models().setSource(input.source)),
    modelCancel: (input) => coded(() => models().cancel(input.id)),
    modelDelete: (input) => coded(() => models().remove(input.id)),
    modelActivate: (input) => coded(() => models().activate(input.id)),
    modelUseFolder: (input) =>
      coded(async () => {
        const manager = models();
        let path = input.path;
        if (path === undefined) {
          if (!deps.pickFolder) throw new CommandError('folder_dialog_unavailable', '无法打开选择文件夹的窗口，请重启应用后再试。');
          const chosen = await deps.pickFolder();
          if (chosen === null) return { ...manager.list(), cancelled: true };
          path = chosen;
        }
        return manager.useFolder(path);
      }),
  };
}
