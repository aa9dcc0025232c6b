import { FakeClock } from '@shared/clock';
import { createAppCore, type AppCore } from '../../src/main/core/app-core';

/**
 * The app core as the voice and book tests use it: offline understanding, speech to a log, no
 * backups, a fake clock at 2026-02-17 12:00 in UTC+8; what it says goes to `spoken`.
 */
export function offlineCore(dataDir: string, options: { spoken?: string[] } = {}): AppCore {
  const clock = new FakeClock(Date.parse('2026-02-17T04:00:00Z'));
  return createAppCore({
    dataDir,
    version: 'test',
    log: () => {},
    backups: false,
    voice: {
      understanding: { mode: 'offline' },
      tts: { engine: 'log', log: (text) => options.spoken?.push(text) },
      clock,
      now: () => ({ epochMs: clock.now(), offsetMinutes: 480 }),
    },
  });
}
