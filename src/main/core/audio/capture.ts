// The microphone through naudiodon (PortAudio). PortAudio initialises its host APIs once per
// process when naudiodon loads, so the module is required lazily: importing this file opens
// nothing, and ALSA_CONFIG_PATH (the virtual microphone in tests) is read at first use.
import { createRequire } from 'node:module';
import type { Clock } from '@shared/clock';
import type * as Naudiodon from 'naudiodon';
import { classifyCaptureError, voiceIoFailure } from './errors';
import { SAMPLE_RATE } from './pcm';
import { errorMessage } from '@shared/errors';

export interface InputDevice {
  id: number;
  name: string;
  isDefault: boolean;
}

let naudiodon: typeof Naudiodon | null = null;

function loadNaudiodon(): typeof Naudiodon {
  if (!naudiodon) {
    try {
      naudiodon = createRequire(import.meta.url)('naudiodon') as typeof Naudiodon;
    } catch (error) {
      throw voiceIoFailure('capture_failed', `音频模块加载失败：${errorMessage(error)}`, error);
    }
  }
  return naudiodon;
}

export async function listInputDevices(): Promise<InputDevice[]> {
  const audio = loadNaudiodon();
  const devices = audio.getDevices().filter((d) => d.maxInputChannels > 0);
  const hosts = audio.getHostAPIs();
  const defaultId = hosts.HostAPIs[hosts.defaultHostAPI]?.defaultInput;
  return devices.map((d) => ({ id: d.id, name: d.name, isDefault: d.id === defaultId }));
}

export interface CaptureHandlers {
  /** Raw little-endian PCM16 bytes in whatever block size the device delivers. */
  onData(chunk: Buffer): void;
  /** The stream failed or ended while open (device unplugged, driver error). */
  onLost(error: Error): void;
}

export interface OpenCapture {
  close(): Promise<void>;
}

/** How long close() waits for PortAudio before abandoning the stream. */
const CLOSE_TIMEOUT_MS = 2000;

/**
 * Opens the chosen (or default) input device for PCM16 mono 16 kHz. Throws a VoiceIoFailure:
 * no_device when nothing can record or the id is unknown, permission_denied, capture_failed.
 */
export async function openCapture(
  options: { deviceId: number | undefined; framesPerBuffer: number; clock: Clock },
  handlers: CaptureHandlers,
): Promise<OpenCapture> {
  const { deviceId, framesPerBuffer, clock } = options;
  const audio = loadNaudiodon();
  const inputs = await listInputDevices();
  if (inputs.length === 0) throw voiceIoFailure('no_device');
  if (deviceId !== undefined && deviceId >= 0 && !inputs.some((d) => d.id === deviceId)) {
    throw voiceIoFailure('no_device', `设备 ${deviceId} 不存在`);
  }
  let stream: Naudiodon.IoStreamRead;
  try {
    stream = audio.AudioIO({
      inOptions: {
        channelCount: 1,
        sampleFormat: audio.SampleFormat16Bit,
        sampleRate: SAMPLE_RATE,
        deviceId: deviceId ?? -1,
        framesPerBuffer,
        closeOnError: true,
      },
    });
  } catch (error) {
    throw classifyCaptureError(error, 'open');
  }

  let open = true;
  const lost = (error: Error) => {
    if (!open) return;
    open = false;
    handlers.onLost(classifyCaptureError(error, 'running'));
  };
  // naudiodon keeps emitting buffered data after quit; `open` gates everything.
  stream.on('data', (chunk: Buffer) => {
    if (open) handlers.onData(chunk);
  });
  stream.on('error', (error: Error) => lost(error));
  stream.on('end', () => lost(new Error('device unavailable: the input stream ended')));
  try {
    stream.start();
  } catch (error) {
    open = false;
    throw classifyCaptureError(error, 'open');
  }

  return {
    close: () => {
      if (!open) return Promise.resolve();
      open = false;
      return new Promise<void>((resolve) => {
        const timer = clock.setTimeout(resolve, CLOSE_TIMEOUT_MS);
        const done = () => {
          clock.clearTimeout(timer);
          resolve();
        };
        try {
          stream.quit(done);
        } catch {
          done();
        }
      });
    },
  };
}
