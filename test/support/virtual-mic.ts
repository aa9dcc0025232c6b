// A virtual microphone for PortAudio: a standalone ALSA config whose capture devices read raw
// PCM16 files (ALSA `file` plugin). PortAudio reads it once, when naudiodon first loads, so a
// test file calls useVirtualMics() before anything opens the microphone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VirtualMic {
  /** ALSA pcm name; the first one becomes the default device. */
  name: string;
  /** Raw PCM16 LE mono 16 kHz file played as the microphone's input (then zeros). */
  rawPath: string;
}

export function writeAlsaConfig(dir: string, mics: readonly VirtualMic[]): string {
  const block = (name: string, mic: VirtualMic) => `pcm.${name} {
  type file
  slave { pcm { type null } }
  file "/dev/null"
  infile "${mic.rawPath}"
  format "raw"
}
`;
  const text = mics.map((mic, i) => block(i === 0 ? '!default' : mic.name, mic)).join('\n');
  const path = join(dir, 'asound.conf');
  writeFileSync(path, text);
  return path;
}

export function useVirtualMics(dir: string, mics: readonly VirtualMic[]): string {
  const path = writeAlsaConfig(dir, mics);
  process.env.ALSA_CONFIG_PATH = path;
  return path;
}
