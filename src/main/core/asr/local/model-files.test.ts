import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AsrFailure } from '../errors';
import { detectModelFiles } from './model-files';

let dirs: string[] = [];

function folder(...files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'model-files-'));
  dirs.push(dir);
  for (const f of files) writeFileSync(join(dir, f), 'x');
  return dir;
}

function failure(dir: string): AsrFailure {
  try {
    detectModelFiles(dir);
  } catch (err) {
    if (err instanceof AsrFailure) return err;
    throw err;
  }
  throw new Error('detectModelFiles accepted the folder');
}

afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('detectModelFiles', () => {
  it('finds the files of a transducer exported as int8 encoder/joiner and float decoder (the shared test model)', () => {
    const stem = '-epoch-12-avg-2-chunk-16-left-64';
    const dir = folder('tokens.txt', `encoder${stem}.int8.onnx`, `decoder${stem}.onnx`, `joiner${stem}.int8.onnx`, 'README.md');
    expect(detectModelFiles(dir)).toEqual({
      kind: 'transducer',
      dir,
      encoder: join(dir, `encoder${stem}.int8.onnx`),
      decoder: join(dir, `decoder${stem}.onnx`),
      joiner: join(dir, `joiner${stem}.int8.onnx`),
      tokens: join(dir, 'tokens.txt'),
    });
  });

  it('prefers int8 for encoder and joiner and float for the decoder when both variants exist', () => {
    const dir = folder(
      'tokens.txt',
      'encoder-epoch-99-avg-1.onnx',
      'encoder-epoch-99-avg-1.int8.onnx',
      'decoder-epoch-99-avg-1.onnx',
      'decoder-epoch-99-avg-1.int8.onnx',
      'joiner-epoch-99-avg-1.onnx',
      'joiner-epoch-99-avg-1.int8.onnx',
    );
    const files = detectModelFiles(dir);
    expect(files.kind).toBe('transducer');
    expect(files.encoder).toBe(join(dir, 'encoder-epoch-99-avg-1.int8.onnx'));
    expect(files.decoder).toBe(join(dir, 'decoder-epoch-99-avg-1.onnx'));
    expect(files.kind === 'transducer' && files.joiner).toBe(join(dir, 'joiner-epoch-99-avg-1.int8.onnx'));
  });

  it('takes the int8 decoder when it is the only one, and float encoder/joiner when they are the only ones', () => {
    const dir = folder('tokens.txt', 'encoder.onnx', 'decoder.int8.onnx', 'joiner.onnx');
    const files = detectModelFiles(dir);
    expect(files).toMatchObject({ kind: 'transducer', encoder: join(dir, 'encoder.onnx'), decoder: join(dir, 'decoder.int8.onnx') });
    expect(files.kind === 'transducer' && files.joiner).toBe(join(dir, 'joiner.onnx'));
  });

  it('never mixes the files of two exports in one folder', () => {
    // The incomplete export sorts first: picking per role alone would take its encoder.
    const dir = folder(
      'tokens.txt',
      'encoder-chunk-16.int8.onnx',
      'decoder-chunk-16.onnx',
      'encoder-chunk-8.int8.onnx',
      'decoder-chunk-8.onnx',
      'joiner-chunk-8.int8.onnx',
    );
    const files = detectModelFiles(dir);
    expect([files.encoder, files.decoder]).toEqual([join(dir, 'encoder-chunk-8.int8.onnx'), join(dir, 'decoder-chunk-8.onnx')]);
  });

  it('recognises a streaming paraformer (encoder + decoder, no joiner) and prefers int8 for both', () => {
    const dir = folder('tokens.txt', 'encoder.onnx', 'encoder.int8.onnx', 'decoder.onnx', 'decoder.int8.onnx');
    expect(detectModelFiles(dir)).toEqual({
      kind: 'paraformer',
      dir,
      encoder: join(dir, 'encoder.int8.onnx'),
      decoder: join(dir, 'decoder.int8.onnx'),
      tokens: join(dir, 'tokens.txt'),
    });
  });

  it('names tokens.txt when it is missing', () => {
    const err = failure(folder('encoder.int8.onnx', 'decoder.onnx', 'joiner.int8.onnx'));
    expect(err.code).toBe('model_incomplete');
    expect(err.message).toMatch(/^模型文件夹缺少 tokens\.txt：/);
  });

  it('names the joiner when a transducer export lacks it', () => {
    const err = failure(folder('tokens.txt', 'encoder-epoch-99.int8.onnx', 'decoder-epoch-99.onnx'));
    expect(err.code).toBe('model_incomplete');
    expect(err.message).toContain('联合网络（joiner*.onnx）');
    expect(err.message).not.toContain('tokens.txt');
  });

  it('names every missing part of an empty folder', () => {
    const err = failure(folder());
    expect(err.message).toMatch(/缺少 tokens\.txt、编码器（encoder\*\.onnx）、解码器（decoder\*\.onnx）、联合网络（joiner\*\.onnx）/);
  });

  it('ignores model files in subfolders', () => {
    const dir = folder();
    mkdirSync(join(dir, 'inner'));
    for (const f of ['tokens.txt', 'encoder.onnx', 'decoder.onnx', 'joiner.onnx']) writeFileSync(join(dir, 'inner', f), 'x');
    expect(failure(dir).code).toBe('model_incomplete');
  });

  it('refuses a folder that does not exist, or a file, as model_incomplete', () => {
    const dir = folder('tokens.txt');
    const absent = failure(join(dir, 'nope'));
    expect(absent.code).toBe('model_incomplete');
    expect(absent.message).toContain('找不到语音模型文件夹');
    expect(failure(join(dir, 'tokens.txt')).message).toContain('不是文件夹');
  });
});
