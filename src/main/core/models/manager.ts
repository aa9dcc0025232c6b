import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { errorMessage } from '@shared/errors';
import { Listeners, type Unsubscribe } from '@shared/listeners';
import {
  MODEL_SOURCE_IDS,
  MODEL_SOURCE_LABELS,
  type ModelEvent,
  type ModelInfo,
  type ModelListing,
  type ModelProgress,
  type ModelSourceId,
  type ModelState,
} from '@shared/ipc/models';
import { decodeWavFile } from '../asr/local/engine';
import { detectModelFiles } from '../asr/local/model-files';
import { CATALOG, isPinned, sourceBytes, unpackedCap, type ArchiveSource, type CatalogEntry, type FilesSource, type ModelSource } from './catalog';
import { downloadToFile, fileSize, sizeCap, type DownloadDispatcher, type DownloadTimers } from './download';
import { isDiskFull, MESSAGES, ModelError } from './errors';
import { DEFAULT_CAPS, extractTarBz2 } from './extract';
import { folderBytes, plainModes } from './folder-files';
import type { ModelManager } from './types';
import { readyFiles, writeReadyMarker } from './ready-marker';
import { PART_SUFFIX, PARTIAL_DIR, STAGING_PREFIX, STATE_FILE, TRASH_PREFIX } from './reserved-names';
import { loadState, saveState, type ModelsState } from './state-store';
import { sha256OfFile, verifyModelFolder, type ModelRuntime } from './verify';

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
  /** No byte for this long moves the download to the next source (default 30 s). */
  stallMs?: number;
  /** Timers for the stall watchdog and the retry wait (a test's fake clock); the globals by default. */
  timers?: DownloadTimers;
  /** fetch's dispatcher for every download (a test's agent trusting its own CA); none in production. */
  dispatcher?: DownloadDispatcher;
  /** Extraction caps (defaults in extract.ts). */
  maxEntries?: number;
  /** The cap for every archive; an entry's own `unpackedBytes` lowers it (see unpackedCap). */
  maxUnpackedBytes?: number;
  now?: () => Date;
  log?: (message: string, err?: unknown) => void;
  /**
   * Called with a model's folder before it is deleted, and awaited: whatever has the model
   * loaded lets go of it first (Windows cannot rename files that are open).
   */
  release?: (modelDir: string) => Promise<void>;
}

const LOCAL_RUNTIME: ModelRuntime = { detectModelFiles, decodeWavFile };
/** Leftovers of a crash: a half-extracted archive or a half-deleted model. */
const isLeftover = (name: string) => name.startsWith(STAGING_PREFIX) || name.startsWith(TRASH_PREFIX);

interface Job {
  controller: AbortController;
  state: ModelState;
  progress: ModelProgress | null;
  /** The user cancelled (the .part goes); a dispose keeps it for the next start. */
  cancelledByUser: boolean;
  done: Promise<unknown>;
  /** The source in use now, and the controller that ends only its attempt. */
  source: ModelSourceId | null;
  sourceController: AbortController | null;
  /** The user chose this source while the download ran: it is tried next, at once. */
  switchTo: ModelSourceId | null;
}

/** Failures whose bytes are bad, not merely unfinished: never resumed from. */
const BAD_BYTES = new Set(['checksum', 'too_large', 'corrupt_archive', 'unsafe_archive', 'incomplete', 'refused']);

/** Failures that end the whole download rather than moving it to the next source. */
const FINAL_CODES = new Set(['cancelled', 'disk_full', 'unknown_model', 'busy']);

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
  const partialDir = join(modelsDir, PARTIAL_DIR);
  /**
   * Where a source's bytes collect. Sources that pin the same SHA-256 serve the same bytes, so
   * they share the file: a download moved to another source resumes where the last one stopped.
   */
  const archivePart = (id: string, source: ArchiveSource) =>
    join(partialDir, `${id}.${source.sha256 ? source.sha256.slice(0, 16) : source.id}.tar.bz2${PART_SUFFIX}`);
  const filesPartDir = (id: string) => join(partialDir, `${id}.files`);
  const filePart = (id: string, path: string, sha256: string | null, source: ModelSourceId) =>
    join(filesPartDir(id), `${sha256 ? sha256.slice(0, 16) : source}-${path.replace(/[\\/]/g, '__')}${PART_SUFFIX}`);
  /** Every kept partial download of a model. */
  const partials = (id: string): string[] => {
    let names: string[] = [];
    try {
      names = readdirSync(partialDir);
    } catch {
      return [];
    }
    const archives = names.filter((n) => n.startsWith(`${id}.`) && n.endsWith(PART_SUFFIX)).map((n) => join(partialDir, n));
    let files: string[] = [];
    try {
      files = readdirSync(filesPartDir(id)).map((n) => join(filesPartDir(id), n));
    } catch {
      // None.
    }
    return [...archives, ...files];
  };
  const partialBytesOf = (id: string) => partials(id).reduce((sum, p) => sum + fileSize(p), 0);
  const removePartials = (id: string) => {
    for (const p of partials(id)) removeFile(p);
    rmSync(filesPartDir(id), { recursive: true, force: true });
  };

  /** The entry's sources in the order a download tries them: the user's choice first. */
  function orderedSources(entry: CatalogEntry, first: ModelSourceId | null = state.source): ModelSource[] {
    const chosen = entry.sources.find((s) => s.id === first);
    return chosen ? [chosen, ...entry.sources.filter((s) => s !== chosen)] : [...entry.sources];
  }
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
    const partialBytes = job || installed ? 0 : partialBytesOf(entry.id);
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
      sources: orderedSources(entry).map((source) => ({
        id: source.id,
        label: MODEL_SOURCE_LABELS[source.id],
        pinned: isPinned(source),
        confirmed: source.confirmed,
      })),
      source: job?.source ?? null,
      unverified: !entry.sources.some(isPinned) && !state.acceptedUnverified.includes(entry.id),
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
      source: state.source,
      sourceChoices: MODEL_SOURCE_IDS.filter((id) => catalog.some((e) => e.sources.some((s) => s.id === id))).map((id) => ({
        id,
        label: MODEL_SOURCE_LABELS[id],
      })),
    };
  }

  /**
   * Tries the sources in turn (the user's choice first; a choice made meanwhile next): a source
   * that fails, stalls, serves too much, redirects elsewhere, or serves bytes that miss their
   * pin or unpack badly is left for the next one. Unpinned sources only with the user's consent.
   */
  async function install(entry: CatalogEntry, job: Job, acceptUnverified: boolean): Promise<void> {
    const { signal } = job.controller;
    const allowed = (source: ModelSource) => isPinned(source) || acceptUnverified || state.acceptedUnverified.includes(entry.id);
    const queue = orderedSources(entry);
    const skipped = queue.filter((source) => !allowed(source));
    let tried = queue.filter(allowed);
    let last: ModelError | null = null;
    while (tried.length > 0) {
      const wanted = job.switchTo ? tried.find((s) => s.id === job.switchTo) : undefined;
      job.switchTo = null;
      const source = wanted ?? tried[0]!;
      tried = tried.filter((s) => s !== source);
      job.source = source.id;
      job.sourceController = new AbortController();
      emit({ type: 'source', id: entry.id, source: source.id, reason: last?.message ?? null });
      try {
        await installFrom(entry, source, job, AbortSignal.any([signal, job.sourceController.signal]));
        return;
      } catch (err) {
        const error = asModelError(err);
        if (signal.aborted) throw new ModelError('cancelled', MESSAGES.cancelled, { cause: err });
        const switched = job.sourceController.signal.aborted;
        if (!switched && FINAL_CODES.has(error.code)) throw error;
        log(`models: ${entry.id} from ${source.id} failed: ${error.code}: ${error.message}`, err);
        if (switched) {
          // The user moved the download: this source stays a candidate behind the chosen one.
          tried = [...tried, source];
          continue;
        }
        last = error;
        setJobState(entry.id, job, 'downloading');
      } finally {
        job.sourceController = null;
      }
    }
    if (!last && skipped.length > 0) throw new ModelError('unverified', MESSAGES.unverified);
    // The pinned sources failed; the unpinned ones wait for the user's consent (asked once).
    if (last && skipped.length > 0) {
      const labels = skipped.map((source) => MODEL_SOURCE_LABELS[source.id]).join('、');
      throw new ModelError('unverified', MESSAGES.unverifiedLeft(last.message, labels), { cause: last });
    }
    if (!last) throw new ModelError('not_found', MESSAGES.notFound);
    const several = entry.sources.filter(allowed).length > 1;
    throw new ModelError(last.code, several ? MESSAGES.allSourcesFailed(last.message) : last.message, { cause: last });
  }

  async function installFrom(entry: CatalogEntry, source: ModelSource, job: Job, signal: AbortSignal): Promise<void> {
    const total = sourceBytes(source);
    const report = (progress: ModelProgress) => {
      job.progress = { ...progress, source: source.id };
      emit({ type: 'progress', id: entry.id, progress: job.progress });
    };
    const common = {
      signal,
      fetch: options.fetch,
      attempts: options.downloadAttempts,
      retryDelayMs: options.retryDelayMs,
      stallMs: options.stallMs,
      timers: options.timers,
      dispatcher: options.dispatcher,
      allowedHosts: source.hosts,
      log,
    };
    const staging = join(modelsDir, `${STAGING_PREFIX}${entry.id}-${randomBytes(4).toString('hex')}`);
    try {
      if (source.kind === 'archive') {
        const part = archivePart(entry.id, source);
        await downloadToFile({
          ...common,
          url: source.url,
          partPath: part,
          expectedBytes: source.bytes,
          maxBytes: sizeCap(source.bytes),
          onProgress: report,
        });
        await checkPin(part, source.sha256, entry.id, source.url);
        setJobState(entry.id, job, 'extracting');
        await extractTarBz2(part, staging, {
          signal,
          maxEntries: options.maxEntries,
          maxBytes: unpackedCap(entry, options.maxUnpackedBytes ?? DEFAULT_CAPS.maxBytes),
        });
      } else {
        await fetchFiles(entry, source, staging, job, signal, common, report, total);
      }
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
      // Bytes that are bad (not merely unfinished) must not be resumed by the next source.
      if (err instanceof ModelError && BAD_BYTES.has(err.code)) {
        if (source.kind === 'archive') removeFile(archivePart(entry.id, source));
        // Pinned files passed their check (a mismatch removed its own); the unpinned may be bad.
        else for (const file of source.files) if (!file.sha256) removeFile(filePart(entry.id, file.path, null, source.id));
      }
      throw err;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    removePartials(entry.id);
  }

  /** A Hugging Face style source: each file downloaded, checked against its pin, placed in staging. */
  async function fetchFiles(
    entry: CatalogEntry,
    source: FilesSource,
    staging: string,
    job: Job,
    signal: AbortSignal,
    common: Omit<Parameters<typeof downloadToFile>[0], 'url' | 'partPath' | 'onProgress'>,
    report: (progress: ModelProgress) => void,
    total: number,
  ): Promise<void> {
    let done = 0;
    for (const file of source.files) {
      const part = filePart(entry.id, file.path, file.sha256, source.id);
      const url = `${source.baseUrl}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
      // A pinned file another source already delivered whole is not fetched again.
      const have = file.sha256 && fileSize(part) === file.bytes && (await sha256OfFile(part)) === file.sha256;
      const { bytes } = have
        ? { bytes: file.bytes }
        : await downloadToFile({
            ...common,
            url,
            partPath: part,
            expectedBytes: file.sha256 ? file.bytes : undefined,
            // A pinned size is exact; an unpinned one is an upper bound, so it is the cap itself.
            maxBytes: file.sha256 ? sizeCap(file.bytes) : file.bytes,
            onProgress: (p) =>
              report({
                ...p,
                receivedBytes: done + p.receivedBytes,
                totalBytes: total,
                percent: Math.min(100, Math.floor(((done + p.receivedBytes) / total) * 1000) / 10),
              }),
          });
      if (signal.aborted) throw new ModelError('cancelled', MESSAGES.cancelled);
      await checkPin(part, file.sha256, entry.id, file.path);
      done += file.sha256 ? file.bytes : bytes;
      const target = join(staging, entry.folder, ...file.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(part, target);
    }
    // The copies carry the .part files' modes, which the umask chose.
    plainModes(join(staging, entry.folder));
    job.progress = null;
  }

  async function checkPin(path: string, sha256: string | null, id: string, what: string): Promise<void> {
    if (!sha256) return;
    const actual = await sha256OfFile(path);
    if (actual === sha256) return;
    log(`models: ${id}: ${what} has sha256 ${actual}, the catalog pins ${sha256}`);
    removeFile(path);
    throw new ModelError('checksum', MESSAGES.checksum(what.split('/').pop() ?? what));
  }

  async function download(id: string, downloadOptions: { acceptUnverified?: boolean } = {}): Promise<ModelListing> {
    const entry = entryOf(id);
    if (jobs.has(id)) throw new ModelError('busy', MESSAGES.busy);
    if (readyFiles(modelDir(id))) return activate(id);
    const acceptUnverified = downloadOptions.acceptUnverified === true;
    if (acceptUnverified && !state.acceptedUnverified.includes(id)) setState({ ...state, acceptedUnverified: [...state.acceptedUnverified, id] });

    const job: Job = {
      controller: new AbortController(),
      state: 'downloading',
      progress: null,
      cancelledByUser: false,
      done: Promise.resolve(),
      source: null,
      sourceController: null,
      switchTo: null,
    };
    jobs.set(id, job);
    failures.delete(id);
    emit({ type: 'state', id, state: 'downloading', error: null });
    const run = install(entry, job, acceptUnverified);
    job.done = run.catch(() => undefined);
    try {
      await run;
    } catch (err) {
      let error = asModelError(err);
      jobs.delete(id);
      if (error.code === 'cancelled') {
        if (job.cancelledByUser) removePartials(id);
        emit({ type: 'state', id, state: 'absent', error: null });
      } else {
        log(`models: ${id} failed: ${error.code}: ${error.message}`, err);
        // The model in use before is untouched by a failed install: say so.
        if (activeModelDir() !== null && error.code !== 'unverified') {
          error = new ModelError(error.code, `${error.message}。${MESSAGES.previousKept}`, { cause: error });
        }
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
      const trash = join(modelsDir, `${TRASH_PREFIX}${id}-${randomBytes(4).toString('hex')}`);
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
    removePartials(id);
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

  function setSource(source: ModelSourceId): ModelListing {
    if (!MODEL_SOURCE_IDS.includes(source)) throw new ModelError('unknown_source', MESSAGES.unknownSource(String(source)));
    setState({ ...state, source });
    // A download under way leaves its current source for the chosen one now (its bytes are
    // kept: a source with the same pins resumes them).
    for (const job of jobs.values()) {
      if (job.source === source || !job.sourceController) continue;
      job.switchTo = source;
      job.sourceController.abort(new Error(`switched to ${source}`));
    }
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
    setSource,
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
    if (!isLeftover(name)) continue;
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
