import { defineConfig } from '@playwright/test';

// The app core runs in the test process and the pages in Chromium with timezoneId
// Asia/Shanghai: one zone for both, or "this month" differs between them near midnight.
process.env['TZ'] = 'Asia/Shanghai';
// Date and time inputs are drawn in the browser's UI language, not the page's locale: on Linux
// Chromium takes it from LANGUAGE (with Debian's chromium-l10n installed for its zh-CN strings),
// as Electron does from main's --lang=zh-CN. Then they show 2026/11/28 and 13:36, not 11/28/2026
// and 01:36 PM. LANGUAGE alone leaves Node's own Intl default (LANG/LC_*) as it was.
process.env['LANGUAGE'] = 'zh_CN';

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
    // The harness opens its own contexts in zh-CN (e2e/fixtures.ts); this covers the stock page fixture.
    { name: 'chromium', testIgnore: /electron\.spec\.ts/, use: { locale: 'zh-CN' } },
    { name: 'electron', testMatch: /electron\.spec\.ts/ },
  ],
});
