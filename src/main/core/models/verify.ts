import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { errorMessage } from '@shared/errors';
import { encodeWav } from '../audio/wav';
import { SAMPLE_RATE } from '../audio/pcm';
import { MESSAGES, ModelError } from './errors';
import { listFiles, type FileEntry } from './folder-files';
import { SILENCE_PREFIX } from './reserved-names';

/** What verification needs from the on-device engine (the real one in asr/local). */
export interface ModelRuntime {
  /** Throws (AsrFailure 'model_incomplete', Chinese message) when the runtime's files are missing. */
  detectModelFiles(dir: string): unknown;
  /** Decodes a WAV with the model, off the main process; rejects when the runtime refuses it. */
  decodeWavFile(modelDir: string, wavPath: string): Promise<{ text: string; tokens: string[] }>;
}

export interface VerifyOptions {
  /** Files the catalog says the model needs (tokens.txt is always needed). */
  requiredFiles?: readonly string[];
  /** The model's own test WAV; otherwise test_wavs/*.wav, otherwise a second of silence. */
  testWav?: string;
  runtime: ModelRuntime;
  /** Where the silence WAV may be written (never inside a user's folder). */
  scratchDir: string;
}

/**
 * Checks that `dir` holds every file the model needs and that the runtime loads it and
 * decodes its own test WAV into text. Resolves with the folder's files; rejects with
 * ModelError 'incomplete' (naming the file) or 'refused'.
 */
export async function verifyModelFolder(dir: string, options: VerifyOptions): Promise<FileEntry[]> {
  if (!isDirectory(dir)) throw new ModelError('incomplete', MESSAGES.notAFolder(dir));
  for (const name of new Set(['tokens.txt', ...(options.requiredFiles ?? [])])) {
    if (!isFile(join(dir, name))) throw new ModelError('incomplete', MESSAGES.missingFile(name));
  }
  try {
    options.runtime.detectModelFiles(dir);
  } catch (err) {
    throw new ModelError('incomplete', errorMessage(err), { cause: err });
  }

  const wav = testWavOf(dir, options.testWav);
  const silence = wav ? null : join(options.scratchDir, `${SILENCE_PREFIX}${randomBytes(4).toString('hex')}.wav`);
  if (silence) writeFileSync(silence, encodeWav(new Int16Array(SAMPLE_RATE)));
  let text: string;
  try {
    text = (await options.runtime.decodeWavFile(dir, wav ?? silence!)).text;
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    throw new ModelError('refused', code === 'model_refused' ? errorMessage(err) : MESSAGES.refused(errorMessage(err)), { cause: err });
  } finally {
    if (silence) rmSync(silence, { force: true });
  }
  // Silence proves only that the runtime loads the model; a real recording must give text.
  if (wav && text.trim() === '') throw new ModelError('refused', MESSAGES.noText);
  return listFiles(dir);
}

function testWavOf(dir: string, preferred: string | undefined): string | null {
  if (preferred && isFile(join(dir, preferred))) return join(dir, preferred);
  const wavDir = join(dir, 'test_wavs');
  if (!isDirectory(wavDir)) return null;
  const first = readdirSync(wavDir)
    .filter((name) => name.toLowerCase().endsWith('.wav'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))[0];
  return first ? join(wavDir, first) : null;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The SHA-256 of a file, lower-case hex, read as a stream (archives are hundreds of MB). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
