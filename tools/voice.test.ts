// The `voice` shell tool, run as a user runs it (a child process), against real espeak-ng
// audio, the virtual microphone and loopback ASR servers.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashScopeServer, startFunAsrServer, type ScriptedAsrServer } from '../test/support/asr-servers';
import { composeProgram, readWavPcm, renderMandarin, tempDir, writeRaw } from '../test/support/speech';
import { writeAlsaConfig } from '../test/support/virtual-mic';
import { encodeWav } from '@core/audio/wav';

const dir = tempDir('skj-voice-tool-');
let programWav = '';
let speech: { startMs: number; endMs: number }[] = [];

beforeAll(() => {
  const clips = ['早餐十二块', '买菜花了四十'].map(renderMandarin);
  const program = composeProgram([{ silenceMs: 800 }, { clip: clips[0]! }, { silenceMs: 1600 }, { clip: clips[1]! }, { silenceMs: 1200 }]);
  speech = program.speech;
  programWav = join(dir.path, 'program.wav');
  writeFileSync(programWav, encodeWav(program.pcm));
});
afterAll(() => dir.remove());

function voice(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tools/voice.ts', ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('voice tool', () => {
  it('vad prints one {"startMs","endMs"} line per utterance', async () => {
    const { code, stdout } = await voice(['vad', programWav]);
    expect(code).toBe(0);
    const found = lines(stdout) as { startMs: number; endMs: number }[];
    expect(found).toHaveLength(2);
    found.forEach((u, i) => {
      expect(Math.abs(u.startMs - speech[i]!.startMs)).toBeLessThanOrEqual(150);
      expect(Math.abs(u.endMs - speech[i]!.endMs)).toBeLessThanOrEqual(150);
    });
    const merged = await voice(['vad', programWav, '--silence-ms', '2000']);
    expect(lines(merged.stdout)).toHaveLength(1);
  });

  it('refuses a bad option with a usage message and exit code 2', async () => {
    const { code, stderr } = await voice(['vad', programWav, '--silence-ms', '100']);
    expect(code).toBe(2);
    expect(stderr).toContain('500–4000');
  });

  it('say --out renders Mandarin speech to a WAV file', async () => {
    const out = join(dir.path, 'said.wav');
    const { code } = await voice(['say', '记好了，还有吗', '--out', out]);
    expect(code).toBe(0);
    const seconds = Number(execFileSync('soxi', ['-D', out]).toString());
    expect(seconds).toBeGreaterThan(0.5);
  });

  it('devices lists the microphones PortAudio sees', async () => {
    const raw = join(dir.path, 'mic.raw');
    writeRaw(raw, new Int16Array(1600));
    const conf = writeAlsaConfig(dir.path, [
      { name: 'default', rawPath: raw },
      { name: 'usb_mic', rawPath: raw },
    ]);
    const { code, stdout } = await voice(['devices'], { ALSA_CONFIG_PATH: conf });
    expect(code).toBe(0);
    expect(
      lines(stdout)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['default', 'usb_mic']);
    expect(lines(stdout).filter((d) => d.isDefault)).toHaveLength(1);
  });

  describe('asr', () => {
    const servers: ScriptedAsrServer[] = [];
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.close()));
    });

    it('streams a WAV through the DashScope adapter with a token and prints partials and the final', async () => {
      const server = await startDashScopeServer(['早餐十二块买菜花了四十']);
      servers.push(server);
      const { code, stdout } = await voice(['asr', programWav, '--url', server.url, '--protocol', 'dashscope', '--token', 'sk-test', '--fast']);
      expect(code).toBe(0);
      const out = lines(stdout);
      expect(out.at(-1)).toEqual({ final: '早餐十二块买菜花了四十' });
      expect(out.filter((l) => 'partial' in l).length).toBeGreaterThan(3);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test');
      const audioBytes = server.frames[0]!.filter(
        (f): f is Record<string, unknown> => !Buffer.isBuffer(f) && f.type === 'input_audio_buffer.append',
      ).reduce((n, f) => n + Buffer.from(String(f.audio), 'base64').length, 0);
      expect(audioBytes).toBe(readWavPcm(programWav).length * 2);
    });

    it('streams through the FunASR 2pass adapter', async () => {
      const server = await startFunAsrServer(['早餐十二块。买菜花了四十。']);
      servers.push(server);
      const { code, stdout } = await voice(['asr', programWav, '--url', server.url, '--protocol', 'funasr', '--fast', '--hotwords', '买菜']);
      expect(code).toBe(0);
      expect(lines(stdout).at(-1)).toEqual({ final: '早餐十二块。买菜花了四十。' });
    });

    const model = join(import.meta.dirname, '../../shared/models/sherpa-onnx-kws-zipformer-wenetspeech-3.3M');
    it.skipIf(!existsSync(model))('--engine local decodes on this machine: partials, then the final (skipped: ../shared/models absent)', async () => {
      const { code, stdout } = await voice(['asr', join(model, 'test_wavs/4.wav'), '--engine', 'local', '--model', model, '--fast']);
      expect(code).toBe(0);
      const out = lines(stdout);
      // The test model spells in pinyin: 蒋友伯被拍到带着女儿出游.
      expect(out.at(-1)).toEqual({ final: 'jiǎngyǒubóbèipāidàodàizhenǚérchūyóu' });
      expect(out.filter((l) => 'partial' in l).length).toBeGreaterThan(3);
    });

    it('--engine local with a folder that is not a model exits 1 saying what is missing', async () => {
      const { code, stderr } = await voice(['asr', programWav, '--engine', 'local', '--model', dir.path, '--fast']);
      expect(code).toBe(1);
      expect(stderr).toContain('tokens.txt');
    });

    it('exits 1 with an error line when the server is unreachable', async () => {
      const { code, stderr } = await voice(['asr', programWav, '--url', 'ws://127.0.0.1:1/x', '--protocol', 'funasr', '--fast']);
      expect(code).toBe(1);
      expect(stderr).toContain('连接语音识别服务失败');
    });
  });
});
