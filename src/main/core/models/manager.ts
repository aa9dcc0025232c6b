import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorMessage } from '@shared/errors';
import { Listeners, type Unsubscribe } from '@shared/listeners';
import type { ModelEvent, ModelInfo, ModelListing, ModelProgress, ModelState } from '@shared/ipc/models';
import { decodeWavFile, detectModelFiles } from '../asr/local/index';
import { CATALOG, type CatalogEntry } from './catalog';
import { downloadToFile, fileSize } from './download';
import { isDiskFull, MESSAGES, ModelError } from './errors';
import { extractTarBz2 } from './extract';
import { folderBytes } from './folder-files';
import type { ModelManager } from './types';
import { readyFiles, writeReadyMarker } from './ready-marker';
import { loadState, saveState, type ModelsState } from './state-store';
import { verifyModelFolder, type ModelRuntime } from './verify';

export interface ModelManagerOptions {
  /** Holds `<id>/` per installed model, `.partial/`, staging folders and state.json. */
  modelsDir: string;
  catalog?: readonly CatalogEntry[];
  /** File check and smoke decode; the on-device engine's by default. */
  runtime?: ModelRuntime;
  fetch?: typeof fetch;
  /** Consecutive failed download attempts before giving up (default 5). */
  downloadAttempts?: number;
  retryDelayMs?: (failedAttempts: number) => number;
  now?: () => Date;
  log?: (message: string, err?: unknown) => void;
  /**
   * Called with a model's folder before it is deleted, and awaited: whatever has the model
   * loaded lets go of it first (Windows cannot rename files that are open).
   */
  release?: (modelDir: string) => Promise<void>;
}

const LOCAL_RUNTIME: ModelRuntime = { detectModelFiles, decodeWavFile };
const PARTIAL_DIR = '.partial';
const STATE_FILE = 'state.json';
/** Leftovers of a crash: a half-extracted archive or a half-deleted model. */
const LEFTOVER = /^\.(staging|trash)-/;

interface Job {
  controller: AbortController;
  state: ModelState;
  progress: ModelProgress | null;
  /** The user cancelled (the .part goes); a dispose keeps it for the next start. */
  cancelledByUser: boolean;
  done: Promise<unknown>;
}

/**
 * Downloads, installs and chooses on-device speech models. Every step happens in a staging
 * folder; only a verified, smoke-decoded model is renamed into `<modelsDir>/<id>` and gets its
 * ready marker, so a failure or a crash never leaves a half model that looks ready, and the
 * model that was active stays active.
 */
export function createModelManager(options: ModelManagerOptions): ModelManager {
  const { modelsDir } = options;
  const catalog = options.catalog ?? CATALOG;
  const runtime = options.runtime ?? LOCAL_RUNTIME;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const statePath = join(modelsDir, STATE_FILE);
  const listeners = new Listeners<{ event: (event: ModelEvent) => void }>((err) => log('models: listener failed', err));
  const jobs = new Map<string, Job>();
  const failures = new Map<string, { code: string; message: string }>();

  mkdirSync(modelsDir, { recursive: true });
  removeLeftovers(modelsDir, log);
  let state = loadState(statePath, log);

  const modelDir = (id: string) => join(modelsDir, id);
  const partPath = (id: string) => join(modelsDir, PARTIAL_DIR, `${id}.tar.bz2.part`);
  const emit = (event: ModelEvent) => listeners.emit('event', event);

  function entryOf(id: string): CatalogEntry {
    const entry = catalog.find((e) => e.id === id);
    if (!entry) throw new ModelError('unknown_model', MESSAGES.unknownModel(id));
    return entry;
  }

  function setState(next: ModelsState): void {
    state = next;
    try {
      saveState(statePath, state);
    } catch (err) {
      // The choice still holds for this run; only the next start forgets it.
      log(`models: cannot save ${statePath}: ${errorMessage(err)}`, err);
    }
  }

  function setJobState(id: string, job: Job, next: ModelState): void {
    job.state = next;
    emit({ type: 'state', id, state: next, error: null });
  }

  function info(entry: CatalogEntry): ModelInfo {
    const job = jobs.get(entry.id);
    const installed = job ? null : readyFiles(modelDir(entry.id));
    const failure = failures.get(entry.id) ?? null;
    const partialBytes = job || installed ? 0 : fileSize(partPath(entry.id));
    return {
      id: entry.id,
      name: entry.name,
      description: entry.description,
      downloadBytes: entry.archiveBytes,
      state: job ? job.state : installed ? 'ready' : failure ? 'failed' : 'absent',
      diskBytes: installed ? folderBytes(modelDir(entry.id)) : null,
      active: installed !== null && state.active?.kind === 'catalog' && state.active.id === entry.id,
      progress: job?.progress ?? null,
      error: job || installed ? null : failure,
      recommended: entry.recommended,
      ...(partialBytes > 0 ? { partialBytes } : {}),
    };
  }

  function activeModelDir(): string | null {
    const active = state.active;
    if (active?.kind === 'catalog') return readyFiles(modelDir(active.id)) ? modelDir(active.id) : null;
    if (active?.kind === 'folder') return existsSync(join(active.path, 'tokens.txt')) ? active.path : null;
    return null;
  }

  function list(): ModelListing {
    const folder = state.folder;
    return {
      models: catalog.map(info),
      folder: folder
        ? { path: folder, diskBytes: folderBytes(folder), active: state.active?.kind === 'folder' && state.active.path === folder }
        : null,
      dir: modelsDir,
      ready: activeModelDir() !== null,
    };
  }

  /** Download → extract → verify → move into place. Leaves nothing in staging either way. */
  async function install(entry: CatalogEntry, job: Job): Promise<void> {
    const { signal } = job.controller;
    const part = partPath(entry.id);
    await downloadToFile({
      url: entry.url,
      partPath: part,
      signal,
      expectedBytes: entry.archiveBytes,
      onProgress: (progress) => {
        job.progress = progress;
        emit({ type: 'progress', id: entry.id, progress });
      },
      fetch: options.fetch,
      attempts: options.downloadAttempts,
      retryDelayMs: options.retryDelayMs,
      log,
    });

    setJobState(entry.id, job, 'extracting');
    const staging = join(modelsDir, `.staging-${entry.id}-${randomBytes(4).toString('hex')}`);
    try {
      await extractTarBz2(part, staging, { signal });
      const root = join(staging, entry.folder);
      if (!isDirectory(root)) throw new ModelError('incomplete', MESSAGES.noModelFolder(entry.folder));
      setJobState(entry.id, job, 'verifying');
      const files = await verifyModelFolder(root, { requiredFiles: entry.requiredFiles, testWav: entry.testWav, runtime, scratchDir: staging });
      if (signal.aborted) throw new ModelError('cancelled', MESSAGES.cancelled);
      const target = modelDir(entry.id);
      // A folder under the final name without its marker is what a crash left: not a model.
      rmSync(target, { recursive: true, force: true });
      renameSync(root, target);
      try {
        writeReadyMarker(target, entry.id, files, now());
      } catch (err) {
        rmSync(target, { recursive: true, force: true });
        throw err;
      }
    } catch (err) {
      // The archive itself is bad: the next attempt must fetch a fresh one, not resume it.
      if (err instanceof ModelError && ['corrupt_archive', 'incomplete', 'refused'].includes(err.code)) removeFile(part);
      throw err;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    removeFile(part);
  }

  async function download(id: string): Promise<ModelListing> {
    const entry = entryOf(id);
    if (jobs.has(id)) throw new ModelError('busy', MESSAGES.busy);
    if (readyFiles(modelDir(id))) return activate(id);

    const job: Job = { controller: new AbortController(), state: 'downloading', progress: null, cancelledByUser: false, done: Promise.resolve() };
    jobs.set(id, job);
    failures.delete(id);
    emit({ type: 'state', id, state: 'downloading', error: null });
    const run = install(entry, job);
    job.done = run.catch(() => undefined);
    try {
      await run;
    } catch (err) {
      const error = asModelError(err);
      jobs.delete(id);
      if (error.code === 'cancelled') {
        if (job.cancelledByUser) removeFile(partPath(id));
        emit({ type: 'state', id, state: 'absent', error: null });
      } else {
        log(`models: ${id} failed: ${error.code}: ${error.message}`, err);
        const failure = { code: error.code, message: error.message };
        failures.set(id, failure);
        emit({ type: 'state', id, state: 'failed', error: failure });
      }
      emit({ type: 'changed' });
      throw error;
    }
    jobs.delete(id);
    setState({ ...state, active: { kind: 'catalog', id } });
    emit({ type: 'state', id, state: 'ready', error: null });
    emit({ type: 'changed' });
    return list();
  }

  function cancel(id: string): ModelListing {
    entryOf(id);
    const job = jobs.get(id);
    if (job) {
      job.cancelledByUser = true;
      job.controller.abort(new ModelError('cancelled', MESSAGES.cancelled));
    }
    return list();
  }

  async function remove(id: string): Promise<ModelListing> {
    entryOf(id);
    const job = jobs.get(id);
    if (job) {
      job.cancelledByUser = true;
      job.controller.abort(new ModelError('cancelled', MESSAGES.cancelled));
      await job.done;
    }
    const target = modelDir(id);
    if (existsSync(target)) {
      await options.release?.(target);
      // Renamed first so the model disappears at once, whatever a slow delete does; a folder
      // still in use (Windows keeps loaded files locked) fails here and stays as it was.
      const trash = join(modelsDir, `.trash-${id}-${randomBytes(4).toString('hex')}`);
      try {
        renameSync(target, trash);
      } catch (err) {
        throw asModelError(err);
      }
      try {
        rmSync(trash, { recursive: true, force: true });
      } catch (err) {
        log(`models: ${trash} stays until the next start: ${errorMessage(err)}`, err);
      }
    }
    removeFile(partPath(id));
    failures.delete(id);
    if (state.active?.kind === 'catalog' && state.active.id === id) setState({ ...state, active: null });
    emit({ type: 'state', id, state: 'absent', error: null });
    emit({ type: 'changed' });
    return list();
  }

  function activate(id: string): ModelListing {
    entryOf(id);
    if (!readyFiles(modelDir(id))) throw new ModelError('incomplete', MESSAGES.notInstalled);
    setState({ ...state, active: { kind: 'catalog', id } });
    emit({ type: 'changed' });
    return list();
  }

  async function useFolder(path: string): Promise<ModelListing> {
    const dir = resolve(path);
    try {
      await verifyModelFolder(dir, { runtime, scratchDir: modelsDir });
    } catch (err) {
      const error = asModelError(err);
      log(`models: folder ${dir} refused: ${error.code}: ${error.message}`, err);
      throw error;
    }
    setState({ ...state, active: { kind: 'folder', path: dir }, folder: dir });
    emit({ type: 'changed' });
    return list();
  }

  return {
    list,
    activeModelDir,
    download,
    cancel,
    remove,
    activate,
    useFolder,
    onEvent: (listener): Unsubscribe => listeners.on('event', listener),
    async dispose() {
      const running = [...jobs.values()];
      for (const job of running) job.controller.abort(new ModelError('cancelled', MESSAGES.cancelled));
      await Promise.all(running.map((job) => job.done));
      listeners.clear();
    },
  };
}

function asModelError(err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  if (isDiskFull(err)) return new ModelError('disk_full', MESSAGES.diskFull, { cause: err });
  return new ModelError('io_error', MESSAGES.ioError(errorMessage(err)), { cause: err });
}

function removeLeftovers(modelsDir: string, log: (message: string, err?: unknown) => void): void {
  for (const name of readdirSync(modelsDir)) {
    if (!LEFTOVER.test(name)) continue;
    log(`models: removing ${name} left by an interrupted install`);
    rmSync(join(modelsDir, name), { recursive: true, force: true });
  }
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
