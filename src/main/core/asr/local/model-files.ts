// Which files of a model folder sherpa-onnx loads, decided from the names sherpa-onnx's
// release archives use: `tokens.txt` plus encoder/decoder(/joiner) `.onnx` files, often in a
// float and an `.int8.onnx` variant side by side.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AsrFailure } from '../errors';
import type { LocalModelFiles } from './types';

type Role = 'encoder' | 'decoder' | 'joiner';

/** `encoder-epoch-12-avg-2.int8.onnx` → role encoder, stem `-epoch-12-avg-2`, int8. */
const ONNX_NAME = /^(encoder|decoder|joiner)(.*?)(\.int8)?\.onnx$/;

interface Candidate {
  role: Role;
  stem: string;
  int8: boolean;
  name: string;
}

/**
 * Finds tokens.txt and a streaming transducer (encoder, decoder, joiner) or a streaming
 * paraformer (`encoder.onnx` + `decoder.onnx`, no joiner) in `dir` (not its subfolders).
 * Throws AsrFailure('model_incomplete') naming what is missing.
 */
export function detectModelFiles(dir: string): LocalModelFiles {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new AsrFailure('model_incomplete', `语音模型路径不是文件夹：${dir}`);
    names = readdirSync(dir).sort();
  } catch (err) {
    if (err instanceof AsrFailure) throw err;
    throw new AsrFailure('model_incomplete', `找不到语音模型文件夹：${dir}`, { cause: err });
  }
  const missing: string[] = [];
  if (!names.includes('tokens.txt')) missing.push('tokens.txt');

  const candidates = names.flatMap((name): Candidate[] => {
    const m = ONNX_NAME.exec(name);
    return m ? [{ role: m[1] as Role, stem: m[2] ?? '', int8: m[3] !== undefined, name }] : [];
  });
  // Files of one export share the stem after the role (epoch, chunk size…); a folder holding
  // two exports must not mix the encoder of one with the decoder of the other.
  const stems = [...new Set(candidates.map((c) => c.stem))];
  const has = (stem: string, role: Role) => candidates.some((c) => c.stem === stem && c.role === role);
  const transducerStem = stems.find((s) => has(s, 'encoder') && has(s, 'decoder') && has(s, 'joiner'));
  // sherpa-onnx's streaming paraformers ship exactly encoder(.int8).onnx and decoder(.int8).onnx;
  // a named export without a joiner is a transducer missing its joiner, and says so.
  const paraformer = transducerStem === undefined && has('', 'encoder') && has('', 'decoder') && !has('', 'joiner');
  const stem = transducerStem ?? (paraformer ? '' : stems[0]);

  const pick = (role: Role, preferInt8: boolean): string | undefined => {
    const ofRole = candidates.filter((c) => c.role === role && c.stem === stem);
    const chosen = ofRole.find((c) => c.int8 === preferInt8) ?? ofRole[0];
    return chosen && join(dir, chosen.name);
  };
  // int8 encoders and joiners decode as well as float ones at a quarter of the size; the
  // transducer decoder is tiny and loses accuracy quantised (sherpa-onnx ships it in float
  // next to int8 encoder/joiner for that reason). A paraformer's decoder is large: int8.
  const encoder = pick('encoder', true);
  const decoder = pick('decoder', paraformer);
  const joiner = paraformer ? undefined : pick('joiner', true);
  if (!encoder) missing.push('编码器（encoder*.onnx）');
  if (!decoder) missing.push('解码器（decoder*.onnx）');
  if (!paraformer && !joiner) missing.push('联合网络（joiner*.onnx）');
  if (missing.length > 0 || !encoder || !decoder) {
    throw new AsrFailure('model_incomplete', `模型文件夹缺少 ${missing.join('、')}：${dir}`);
  }
  const tokens = join(dir, 'tokens.txt');
  // Without a joiner this is the paraformer: a transducer missing it has thrown above.
  if (!joiner) return { kind: 'paraformer', dir, encoder, decoder, tokens };
  return { kind: 'transducer', dir, encoder, decoder, joiner, tokens };
}
