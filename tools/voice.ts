// `npm run voice -- --help` lists the commands.
// Runs exactly the app's voice I/O code (src/main/core/audio, asr, tts) so a user can check a
// microphone, a WAV file or an ASR configuration from the shell.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { systemClock } from '@shared/clock';
import { listInputDevices, parseWav, requireSpeechFormat, segmentPcm } from '@core/audio/index';
import {
  createAsrClient,
  createLocalAsrEngine,
  createGatewayTokenProvider,
  createStaticTokenProvider,
  DASHSCOPE_DEFAULT_MODEL,
  PTT_FINAL_TIMEOUT_MS,
  type TokenProvider,
} from '@core/asr/index';
import type { AsrClient } from '@core/voice/ports';
import { createTts } from '@core/tts/index';
import { errorMessage } from '@shared/errors';

const USAGE = `Usage: npm run voice -- COMMAND

Commands:
  devices                               microphones, one JSON line each
  vad FILE.wav [--silence-ms N] [--min-speech-ms N]
                                        utterances as JSON lines {"startMs","endMs"} (node-vad)
  asr FILE.wav --url WS_URL --protocol dashscope|funasr [--token T | --gateway URL [--api-key K]] [--fast] [--hotwords a,b]
                                        cloud recognition: {"partial"} lines, then {"final"}
  asr FILE.wav --engine local --model DIR [--threads N] [--fast]
                                        on-device recognition with a sherpa-onnx model folder
  say TEXT [--out FILE.wav] [--rate R]  speak (espeak-ng on Linux), or render to a WAV file
  --help                                this text

Options:
  --fast      send the audio as fast as the recognizer takes it, not in real time
  --api-key   the gateway's key (default: $SUIKOUJI_GATEWAY_KEY)
WAV input must be PCM16 mono 16 kHz: sox in.wav -r 16000 -c 1 -b 16 -e signed-integer out.wav

Examples:
  npm run voice -- devices
  npm run voice -- vad clip.wav --silence-ms 1000
  npm run voice -- asr clip.wav --engine local --model ../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M --fast
  npm run voice -- say "记好了" --out said.wav

Exit: 0 done, 1 failed (no recognition result, a TTS error), 2 usage.`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value`);
  return value;
}

function numberOption(args: string[], name: string): number | undefined {
  const raw = option(args, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new UsageError(`${name} must be a number, got ${raw}`);
  return n;
}

function readSpeechWav(path: string | undefined): Int16Array {
  if (!path) throw new UsageError('missing FILE.wav');
  return requireSpeechFormat(parseWav(readFileSync(path)));
}

const print = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n');

async function vad(args: string[]): Promise<number> {
  const pcm = readSpeechWav(args[0]);
  const { utterances } = await segmentPcm(pcm, {
    silenceMs: numberOption(args, '--silence-ms'),
    minSpeechMs: numberOption(args, '--min-speech-ms'),
  });
  for (const u of utterances) print({ startMs: u.startMs, endMs: u.endMs });
  return 0;
}

function tokensFor(args: string[], url: string): TokenProvider | undefined {
  const token = option(args, '--token');
  const gateway = option(args, '--gateway');
  if (token && gateway) throw new UsageError('use --token or --gateway, not both');
  if (gateway) return createGatewayTokenProvider({ gatewayUrl: gateway, apiKey: option(args, '--api-key') ?? process.env.SUIKOUJI_GATEWAY_KEY });
  if (token) {
    return createStaticTokenProvider(async () => ({
      token,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      model: DASHSCOPE_DEFAULT_MODEL,
      wsUrl: url,
    }));
  }
  return undefined;
}

/** A DashScope or FunASR client, as the app configures it. */
function cloudClient(args: string[]): AsrClient {
  const url = option(args, '--url');
  const protocol = option(args, '--protocol') ?? 'dashscope';
  if (!url) throw new UsageError('--url is required');
  if (protocol !== 'dashscope' && protocol !== 'funasr') throw new UsageError(`--protocol must be dashscope or funasr, got ${protocol}`);
  const hotwords = option(args, '--hotwords')?.split(',').filter(Boolean);
  return createAsrClient({
    protocol,
    url,
    tokens: tokensFor(args, url),
    hotwords,
    shouldReconnect: () => true,
    log: (m) => process.stderr.write(`[asr] ${m}\n`),
  });
}

async function asr(args: string[]): Promise<number> {
  const pcm = readSpeechWav(args[0]);
  const engine = option(args, '--engine') ?? 'cloud';
  if (engine === 'cloud') return recognise(cloudClient(args), pcm, args);
  if (engine !== 'local') throw new UsageError(`--engine must be cloud or local, got ${engine}`);
  const modelDir = option(args, '--model');
  if (!modelDir) throw new UsageError('--model DIR is required with --engine local');
  const local = createLocalAsrEngine({
    modelDir,
    numThreads: numberOption(args, '--threads'),
    log: (m, err) => process.stderr.write(`[asr-local] ${m}${err ? `: ${errorMessage(err)}` : ''}\n`),
  });
  try {
    return await recognise(local.createClient(), pcm, args);
  } finally {
    await local.dispose();
  }
}

/** Streams the audio in 30 ms frames (in real time unless --fast), then prints the final text. */
async function recognise(client: AsrClient, pcm: Int16Array, args: string[]): Promise<number> {
  const fast = args.includes('--fast');
  let finalText: string | null = null;
  let failure: string | null = null;
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  client.on('partial', (text) => print({ partial: text }));
  client.on('final', (text) => {
    finalText = text;
    print({ final: text });
    settle();
  });
  client.on('error', (e) => {
    print({ error: e.code, message: e.message });
    if (e.code !== 'server_error') {
      failure = e.message;
      settle();
    }
  });
  await client.connect();
  const frame = 480; // 30 ms, as the microphone delivers it
  for (let at = 0; at < pcm.length; at += frame) {
    client.sendAudio(pcm.subarray(at, at + frame));
    if (!fast) await new Promise<void>((r) => systemClock.setTimeout(r, 30));
  }
  client.commit();
  const timer = systemClock.setTimeout(settle, PTT_FINAL_TIMEOUT_MS);
  await settled;
  systemClock.clearTimeout(timer);
  await client.close();
  if (finalText === null && !failure) print({ error: 'no_result', message: `${PTT_FINAL_TIMEOUT_MS / 1000} 秒内没有收到识别结果` });
  return finalText === null ? 1 : 0;
}

async function say(args: string[]): Promise<number> {
  const text = args[0];
  if (!text) throw new UsageError('missing TEXT');
  const out = option(args, '--out');
  let failed = false;
  const tts = createTts({
    engine: out ? 'wav' : 'auto',
    wavPath: out,
    rate: numberOption(args, '--rate') ?? 1,
    onError: (e) => {
      failed = true;
      process.stderr.write(`${e.code}: ${e.message}\n`);
    },
  });
  await tts.speak(text);
  return failed ? 1 : 0;
}

async function devices(): Promise<number> {
  for (const d of await listInputDevices()) print(d);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'vad':
        return await vad(args);
      case 'asr':
        return await asr(args);
      case 'say':
        return await say(args);
      case 'devices':
        return await devices();
      default:
        throw new UsageError(command ? `unknown command ${command}` : 'missing command');
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof RangeError) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`${errorMessage(error)}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
