import { defineConfig } from '@playwright/test';

// The app core runs in the test process and the pages in Chromium with timezoneId
// Asia/Shanghai: one zone for both, or "this month" differs between them near midnight.
process.env['TZ'] = 'Asia/Shanghai';

// Browser tests run the built renderer in Debian's Chromium through the e2e bridge
// (`npm run build` first). The Electron project runs only where an Electron binary exists.
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/playwright',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  projects: [
    { name: 'chromium', testIgnore: /electron\.spec\.ts/ },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
});
