// espeak-ng, the Linux voice: the pinyin Mandarin voice reads hanzi properly (the plain `cmn`
// voice reads many as pinyin plus a tone digit). Text goes in on stdin so nothing the user
// said can be taken for a command-line option.
import { spawn, type ChildProcess } from 'node:child_process';

export const ESPEAK_VOICE = 'cmn-latn-pinyin';
const ESPEAK_DEFAULT_WPM = 175;

export interface Running<T> {
  result: Promise<T>;
  kill(): void;
}

/** Runs a program, feeding `input` on stdin; resolves with stdout, rejects with a reason. */
export function run(command: string, args: string[], input?: Buffer | string): Running<Buffer> {
  let child: ChildProcess;
  const result = new Promise<Buffer>((resolve, reject) => {
    child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.once('error', (error: NodeJS.ErrnoException) => reject(Object.assign(new Error(`${command}: ${error.message}`), { code: error.code })));
    child.once('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(new Error(`${command} ${signal ? `killed by ${signal}` : `exited ${code}`}: ${Buffer.concat(err).toString().trim().slice(0, 300)}`));
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(input ?? '');
  });
  return { result, kill: () => void child?.kill('SIGTERM') };
}

export function espeakArgs(rate: number, extra: string[] = []): string[] {
  return ['-v', ESPEAK_VOICE, '-s', String(Math.round(ESPEAK_DEFAULT_WPM * rate)), ...extra];
}

/** Renders speech to WAV bytes (espeak-ng's own 22 050 Hz mono PCM16). */
export function renderWav(command: string, text: string, rate: number): Running<Buffer> {
  return run(command, espeakArgs(rate, ['--stdout']), text);
}

/** WAV players tried in order on Linux; the first one installed is kept. Each reads stdin. */
export const LINUX_PLAYERS: readonly { command: string; args: string[] }[] = [
  { command: 'aplay', args: ['-q', '-t', 'wav', '-'] },
  { command: 'paplay', args: [] },
  { command: 'pw-play', args: ['-'] },
];
