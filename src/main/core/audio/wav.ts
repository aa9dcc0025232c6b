import { SAMPLE_RATE } from './pcm';

export interface WavAudio {
  sampleRate: number;
  channels: number;
  samples: Int16Array;
}

/** Reads a PCM16 WAV file's bytes; other encodings are refused with a hint to convert. */
export function parseWav(bytes: Uint8Array): WavAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new Error('不是 WAV 文件（缺少 RIFF/WAVE 头）');
  let at = 12;
  let format: { audioFormat: number; channels: number; sampleRate: number; bits: number } | null = null;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    let size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      format = {
        audioFormat: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV 文件缺少 fmt 段');
      // Streams written to a pipe (espeak-ng --stdout) carry a 0 or 0xFFFFFFFF data size.
      if (size === 0 || body + size > bytes.length) size = bytes.length - body;
      const pcmFormat = format.audioFormat === 1 || format.audioFormat === 0xfffe;
      if (!pcmFormat || format.bits !== 16) {
        throw new Error(`只支持 16 位 PCM WAV（可用 sox in.wav -r 16000 -c 1 -b 16 -e signed-integer out.wav 转换）`);
      }
      const count = Math.floor(size / 2);
      const samples = new Int16Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(body + i * 2, true);
      return { sampleRate: format.sampleRate, channels: format.channels, samples };
    }
    at = body + size + (size & 1);
  }
  throw new Error('WAV 文件缺少 data 段');
}

/** The app's own format; anything else would silently confuse the VAD and ASR. */
export function requireSpeechFormat(audio: WavAudio): Int16Array {
  if (audio.sampleRate !== SAMPLE_RATE || audio.channels !== 1) {
    throw new Error(
      `需要 16 kHz 单声道 WAV，文件是 ${audio.sampleRate} Hz ${audio.channels} 声道（可用 sox in.wav -r 16000 -c 1 -b 16 -e signed-integer out.wav 转换）`,
    );
  }
  return audio.samples;
}

export function encodeWav(samples: Int16Array, sampleRate = SAMPLE_RATE): Buffer {
  const out = Buffer.alloc(44 + samples.length * 2);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples.length * 2, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, 44 + i * 2);
  return out;
}
