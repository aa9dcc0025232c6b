// The `session` replay tool run as a user runs it (a child process): typed steps offline, and
// espeak-ng audio through node-vad to a loopback server speaking the DashScope protocol.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRow } from '@shared/domain';
import type { VoiceEvent } from '@shared/events';
import { encodeWav, parseWav } from '@core/audio/wav';
import { startDashScopeServer, type ScriptedAsrServer } from '../test/support/asr-servers';
import { composeProgram, renderMandarin, tempDir } from '../test/support/speech';

const dir = tempDir('skj-session-tool-');
let server: ScriptedAsrServer;

beforeAll(async () => {
  const program = composeProgram([{ silenceMs: 600 }, { clip: renderMandarin('午饭三十五块') }, { silenceMs: 1500 }]);
  writeFileSync(join(dir.path, 'lunch.wav'), encodeWav(program.pcm));
  server = await startDashScopeServer(['午饭35块', '打车20']);
});
afterAll(async () => {
  await server?.close();
  dir.remove();
});

function session(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tools/session.ts', ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function script(name: string, steps: unknown[]): string {
  const path = join(dir.path, name);
  writeFileSync(path, steps.map((s) => JSON.stringify(s)).join('\n'));
  return path;
}

function parse(stdout: string): { events: VoiceEvent[]; rows: TransactionRow[] } {
  const lines = stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as VoiceEvent | { rows: TransactionRow[] });
  const last = lines.at(-1) as { rows: TransactionRow[] };
  return { events: lines.slice(0, -1) as VoiceEvent[], rows: last.rows };
}

describe('npm run session', () => {
  it('replays typed steps offline: every event as a JSON line, then the saved rows', async () => {
    const path = script('typed.jsonl', [
      { text: '午饭35块' },
      { text: '金额改成40' },
      { command: 'confirmItem', index: 0 },
      { text: '打车20' },
      { text: '确认' },
      { command: 'undo' },
      { text: '退出' },
    ]);
    const wav = join(dir.path, 'spoken.wav');
    const r = await session(['--script', path, '--offline', '--now', '2026-02-17T12:00:00+08:00', '--tts-wav', wav]);
    expect(r.code, r.stderr).toBe(0);
    const { events, rows } = parse(r.stdout);
    expect(events[0]).toEqual({ type: 'stateChanged', state: 'listening' });
    // The last thing said (the goodbye summary) was rendered by espeak-ng into the WAV.
    expect(parseWav(readFileSync(wav)).samples.length).toBeGreaterThan(8000);
    expect(events.filter((e) => e.type === 'finalText').map((e) => e.type === 'finalText' && e.text)).toEqual(['午饭35块', '打车20']);
    expect(events.filter((e) => e.type === 'saved')).toHaveLength(2);
    expect(events.some((e) => e.type === 'ttsSpoken' && e.text.includes('已修改为支出40元'))).toBe(true);
    expect(events.filter((e) => e.type === 'exitSession')).toHaveLength(1);
    expect(rows.map((row) => [row.amountFen, row.occurredAt])).toEqual([[4000, '2026-02-17T12:00:00+08:00']]);
  });

  it('replays a WAV through the VAD and the ASR adapter, and push-to-talk on the fake clock', async () => {
    const path = script('audio.jsonl', [
      { mode: 'auto' },
      { audio: 'lunch.wav' },
      { text: '确认' },
      { mode: 'pushToTalk' },
      { ptt: 'down' },
      { audio: 'lunch.wav' },
      { advance: 2000 },
      { ptt: 'up' },
      { command: 'confirmAll' },
    ]);
    const r = await session(['--script', path, '--offline', '--asr', server.url, '--now', '2026-02-17T12:00:00+08:00']);
    expect(r.code, r.stderr).toBe(0);
    const { events, rows } = parse(r.stdout);
    expect(events.filter((e) => e.type === 'finalText').map((e) => e.type === 'finalText' && e.text)).toEqual(['午饭35块', '打车20']);
    expect(events.some((e) => e.type === 'speechDetected')).toBe(true);
    expect(rows.map((row) => row.amountFen).sort()).toEqual([2000, 3500]);
  });

  it('refuses a bad script line with its number, before running anything', async () => {
    const path = join(dir.path, 'bad.jsonl');
    writeFileSync(path, '{"text": "午饭35"}\n{"jump": 3}\n');
    const r = await session(['--script', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('script line 2');
    expect(r.stdout).toBe('');
  });
});
