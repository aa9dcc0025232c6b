import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';

/** The path aliases of tsconfig.node.json / tsconfig.web.json. */
const alias = { '@shared': resolve('src/shared'), '@core': resolve('src/main/core') };

// Two projects: Svelte's plugin adds the `browser` resolve condition, which would swap `ws`
// and other node packages for their browser stubs, so node code never runs under it.
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
            'tools/**/*.test.ts',
            'bench/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        plugins: [svelte()],
        resolve: { conditions: ['browser'], alias: { '@shared': alias['@shared'] } },
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['src/renderer/**/*.test.ts'],
        },
      },
    ],
  },
});
