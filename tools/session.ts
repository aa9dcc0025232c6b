// `npm run session -- --help` lists the options and the script's steps. Replays a voice session
// against the REAL orchestrator, session manager and ledger (a temp database unless --db), on a
// fake clock that only `advance` steps move.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { AsrToken, VoiceMode } from '@shared/domain';
import { voiceActionSchema } from '@shared/ipc/voice';
import { parseZonedIso, systemNow, type ZonedNow } from '@shared/time';
import { parseWav, requireSpeechFormat } from '@core/audio/index';
import { createGatewayTokenProvider, createStaticTokenProvider, DASHSCOPE_DEFAULT_MODEL } from '@core/asr/index';
import { FakeClock } from '@shared/clock';
import { openLedger } from '@core/ledger/index';
import type { VoiceConfig } from '@core/settings/index';
import { PcmVoiceInput } from '@core/audio/pcm-voice-input';
import { VoiceSessionManager } from '@core/voice/session';
import { buildSessionParts, type VoiceOverrides } from '@core/voice/wiring';

const USAGE = `Usage: npm run session -- --script FILE.jsonl [options]

Replays a voice session against the app's orchestrator and ledger on a fake clock, printing
every voice event as one JSON line, then {"rows": [...]}: the rows this run saved that are
still in the ledger.

Options:
  --script FILE.jsonl        the steps, one JSON object a line (required; // lines are comments)
  --db PATH                  the ledger file to write (default: a temporary one, removed after)
  --llm URL | --offline      understand through this gateway, or offline rules (the default)
  --asr URL                  a DashScope or FunASR WebSocket server for audio steps
  --asr-protocol dashscope|funasr                        (default dashscope)
  --now ISO                  the fake clock's start, with its UTC offset (default: now)
  --tts-wav FILE.wav         write the read-backs to a WAV file (default: logged on stderr)
  --help                     this text

Steps:
  {"text": "午饭35块"}                    typed input
  {"audio": "clip.wav"}                   PCM16 mono 16 kHz WAV through node-vad and --asr
  {"ptt": "down"} / {"ptt": "up"}         the push-to-talk key
  {"advance": 3000}                       move the fake clock (idle timeout, LLM timeout, PTT hold)
  {"command": "confirmItem", "index": 1}  a card action: confirmItem, cancelItem, editItem (+ fields),
                                          confirmAll, cancelAll, undo, restart, exit
  {"mode": "auto" | "pushToTalk" | "keyboard"}

Example:
  printf '%s\\n' '{"text":"午饭35块"}' '{"command":"confirmAll"}' > steps.jsonl
  npm run session -- --script steps.jsonl --now 2026-02-17T12:00:00+08:00

Exit: 0 done, 1 the session failed, 2 usage or a bad script line.`;

class UsageError extends Error {}

export const stepSchema = z.union([
  z.object({ text: z.string().min(1).max(2000) }).strict(),
  z.object({ audio: z.string().min(1) }).strict(),
  z.object({ ptt: z.enum(['down', 'up']) }).strict(),
  z.object({ advance: z.number().int().min(0).max(86_400_000) }).strict(),
  z.object({ mode: z.enum(['auto', 'pushToTalk', 'keyboard']) }).strict(),
  // Checked against the IPC action schema below, so the tool accepts what the UI may send.
  z.object({ command: z.string(), index: z.number().optional(), fields: z.record(z.string(), z.unknown()).optional() }).strict(),
]);
export type Step = z.output<typeof stepSchema>;

interface Args {
  script: string;
  db?: string;
  llm?: string;
  asr?: string;
  asrProtocol: 'dashscope' | 'funasr';
  now: ZonedNow;
  ttsWav?: string;
}

function parseArgs(argv: string[]): Args {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    if (at < 0) return undefined;
    const v = argv[at + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
    return v;
  };
  const known = new Set(['--script', '--db', '--llm', '--offline', '--asr', '--asr-protocol', '--now', '--tts-wav']);
  for (const a of argv) if (a.startsWith('--') && !known.has(a)) throw new UsageError(`unknown option ${a}`);
  const script = value('--script');
  if (!script) throw new UsageError('--script is required');
  const llm = value('--llm');
  if (llm && argv.includes('--offline')) throw new UsageError('--llm and --offline exclude each other');
  const protocol = value('--asr-protocol') ?? 'dashscope';
  if (protocol !== 'dashscope' && protocol !== 'funasr') throw new UsageError('--asr-protocol is dashscope or funasr');
  const nowText = value('--now');
  const now = nowText ? parseZonedIso(nowText) : systemNow();
  if (!now) throw new UsageError(`--now needs an ISO instant with an offset, e.g. 2026-02-17T12:00:00+08:00 (got ${nowText})`);
  return {
    script,
    ...(value('--db') ? { db: value('--db') } : {}),
    ...(llm ? { llm } : {}),
    ...(value('--asr') ? { asr: value('--asr') } : {}),
    asrProtocol: protocol,
    now,
    ...(value('--tts-wav') ? { ttsWav: value('--tts-wav') } : {}),
  };
}

/** Parses the script; a bad line is reported with its number and nothing runs. */
export function parseScript(text: string): Step[] {
  const steps: Step[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim() || line.trim().startsWith('//')) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new UsageError(`script line ${i + 1}: not JSON`);
    }
    const parsed = stepSchema.safeParse(json);
    if (!parsed.success) throw new UsageError(`script line ${i + 1}: not a step (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    const step = parsed.data;
    if ('command' in step) {
      const { command, ...rest } = step;
      const check = voiceActionSchema.safeParse({ action: command, ...rest });
      if (!check.success) throw new UsageError(`script line ${i + 1}: bad command (${check.error.issues[0]?.message ?? 'invalid'})`);
    }
    steps.push(step);
  });
  return steps;
}

/** Waits (real time, bounded) while the socket/LLM work of an utterance finishes. */
async function settle(voice: VoiceSessionManager): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const o = voice.current;
    if (o) await o.idle();
    if (!o || !o.awaitingFinal || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  if (voice.current) await voice.current.idle();
}

export async function main(argv: string[], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(USAGE);
    return 0;
  }
  let args: Args;
  let steps: Step[];
  try {
    args = parseArgs(argv);
    steps = parseScript(readFileSync(args.script, 'utf8'));
  } catch (err) {
    if (err instanceof UsageError || (err as NodeJS.ErrnoException).code === 'ENOENT') {
      process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    throw err;
  }
  const scriptDir = dirname(resolve(args.script));
  const tempDb = args.db ? null : mkdtempSync(join(tmpdir(), 'skj-session-'));
  const clock = new FakeClock(args.now.epochMs);
  const now = () => ({ epochMs: clock.now(), offsetMinutes: args.now.offsetMinutes });
  const ledger = openLedger({ path: args.db ?? join(tempDb!, 'ledger.db'), now });
  const mic = new PcmVoiceInput();
  const config: VoiceConfig = {
    understanding: args.llm ? { mode: 'gateway', gatewayUrl: args.llm } : { mode: 'offline' },
    asr: { protocol: args.asrProtocol, tokens: 'none' },
    input: { silenceMs: 1000 },
    tts: { enabled: true, rate: 1 },
  };
  const overrides: VoiceOverrides = {
    clock,
    now,
    createVoiceInput: () => mic,
    tts: args.ttsWav ? { engine: 'wav', wavPath: args.ttsWav } : { engine: 'log', log: (text) => process.stderr.write(`[tts] ${text}\n`) },
    log: (message) => process.stderr.write(`[session] ${message}\n`),
  };
  if (args.asr) {
    const url = args.asr;
    const tokens =
      args.asrProtocol === 'funasr'
        ? undefined
        : args.llm
          ? createGatewayTokenProvider({ gatewayUrl: args.llm, clock })
          : // A local DashScope-compatible server takes any token.
            createStaticTokenProvider(
              async (): Promise<AsrToken> => ({
                token: 'local',
                expiresAt: Math.floor(clock.now() / 1000) + 3600,
                model: DASHSCOPE_DEFAULT_MODEL,
                wsUrl: url,
              }),
              clock,
            );
    overrides.asr = { protocol: args.asrProtocol, url, ...(tokens ? { tokens } : {}) };
  }
  const hasAudio = steps.some((s) => 'audio' in s);
  const hasPtt = steps.some((s) => 'ptt' in s);
  const mode: VoiceMode = hasPtt ? 'pushToTalk' : hasAudio ? 'auto' : 'keyboard';
  /** Rows this run saved; an existing --db keeps its older rows out of the report. */
  const savedIds: string[] = [];
  const voice = new VoiceSessionManager({
    mode,
    emit: (event) => {
      if (event.type === 'saved') savedIds.push(...event.transactions.map((row) => row.id));
      out(JSON.stringify(event));
    },
    parts: () => buildSessionParts(config, ledger, overrides),
  });
  let code = 0;
  try {
    await voice.start(mode);
    await settle(voice);
    for (const step of steps) {
      if ('text' in step) await voice.submitText(step.text);
      else if ('advance' in step) await clock.advance(step.advance);
      else if ('mode' in step) await voice.setMode(step.mode);
      else if ('ptt' in step) await voice.pushToTalk(step.ptt);
      else if ('audio' in step) {
        const pcm = requireSpeechFormat(parseWav(readFileSync(resolve(scriptDir, step.audio))));
        await mic.play(pcm);
      } else {
        const { command, ...rest } = step;
        await voice.act(voiceActionSchema.parse({ action: command, ...rest }));
      }
      await settle(voice);
    }
    // Let the last read-back reach the speaker (or the WAV file) before the session closes.
    await voice.current?.silent();
    // Still in the ledger: a row undone later in the script is not reported.
    out(JSON.stringify({ rows: ledger.getMany(savedIds) }));
  } catch (err) {
    process.stderr.write(`session failed: ${(err as Error).message}\n`);
    code = 1;
  } finally {
    await voice.dispose();
    ledger.close();
    if (tempDb) rmSync(tempDb, { recursive: true, force: true });
  }
  return code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
