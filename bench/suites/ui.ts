import { rmSync } from 'node:fs';
import { createAppCore } from '@core/app-core';
import type { SecretBox } from '@core/settings/index';
import type { IpcResult, VoiceSnapshot } from '@shared/ipc/index';
import type { Suite } from '../harness';
import { benchTempDir } from '../temp';

const box: SecretBox = {
  available: true,
  encrypt: (plain) => Buffer.from(plain).toString('base64'),
  decrypt: (cipher) => Buffer.from(cipher, 'base64').toString(),
};

/**
 * What the windows feel: a typed entry until the command answers with the drafts the card
 * draws (offline, through the real dispatch, orchestrator and local NLP), and a settings
 * save (validate, encrypt, atomic write).
 */
const suite: Suite = {
  name: 'ui',
  description: "What the window feels: a typed entry until the card's drafts, and a settings save",
  async run(ctx) {
    const dir = benchTempDir('ui-');
    const core = createAppCore({ dataDir: dir, version: 'bench', secretBox: box, log: () => {}, voice: { tts: { engine: 'log', log: () => {} } } });
    try {
      await ctx.measureAsync(
        'ui.keyboardToCard',
        async () => {
          const result = (await core.dispatch('voiceText', { text: '午饭35' })) as IpcResult<VoiceSnapshot>;
          if (!result.ok || result.value.batch?.items.length !== 1) throw new Error('no draft for the card');
          await core.dispatch('voiceAction', { action: 'cancelAll' });
        },
        { iterations: 300, warmup: 30, budget: { p50: 20, p99: 60 } },
      );
      let n = 0;
      await ctx.measure(
        'ui.settingsSave',
        () => core.dispatch('settingsSave', { settings: { vad: { silenceMs: 500 + (n++ % 3000) } }, secrets: { gatewayApiKey: `bench-key-${n}` } }),
        { iterations: 300, warmup: 30, budget: { p50: 5, p99: 20 } },
      );
    } finally {
      await core.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
