import { configDefaults, defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';

/** The path aliases of tsconfig.node.json / tsconfig.web.json. */
/**
 * Suites that keep both cores busy for a long time (see the sync-integration project): the
 * sync suites, and the recognizer reading every rendered picture (test/ocr, minutes of CPU).
 */
const SYNC_INTEGRATION = ['test/sync-*.test.ts', 'src/main/core/sync/sync-property.test.ts', 'test/ocr/**/*.test.ts'];

const alias = { '@shared': resolve('src/shared'), '@core': resolve('src/main/core') };

// Node code and Svelte components in separate projects: Svelte's plugin adds the `browser`
// resolve condition, which would swap `ws` and other node packages for their browser stubs,
// so node code never runs under it. The sync integration suites are a third, run last.
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/main/**/*.test.ts',
            'src/shared/**/*.test.ts',
            'src/gateway/**/*.test.ts',
            'src/llm/**/*.test.ts',
            'tools/**/*.test.ts',
            'bench/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          // The sync suites below run apart, after everything else.
          exclude: [...configDefaults.exclude, ...SYNC_INTEGRATION],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          // A real Apache, sync processes killed with SIGKILL, CLIs as children, thousands of
          // random sync rounds: busy for minutes. Run after the other projects, one file at a
          // time, so the timing checks elsewhere (the NLP's per-call bound) never share the two
          // cores with them.
          name: 'sync-integration',
          environment: 'node',
          include: SYNC_INTEGRATION,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        plugins: [svelte()],
        resolve: { conditions: ['browser'], alias: { '@shared': alias['@shared'] } },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src/renderer/**/*.test.ts'],
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
