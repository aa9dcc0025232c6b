#!/usr/bin/env node
// `npm test`: type checks, the build, every vitest project, and the browser tests; then the
// plain closing line `N passed, N failed, N skipped` that CI reads (it cannot read vitest's
// or Playwright's own summaries). Every step runs even if an earlier one failed, so one run
// shows everything that is wrong; the exit code is non-zero if anything failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = 'test-results';
mkdirSync(results, { recursive: true });
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

let passed = 0;
let failed = 0;
let skipped = 0;
const failedSteps = [];
/** Each step's wall-clock time, printed at the end: where a slow run went. */
const stepTimes = [];
const started = Date.now();

function run(label, command, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const t0 = Date.now();
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  // The label without its long aside: 「typecheck (node)」 stays, 「lint (eslint: …)」 is 「lint」.
  stepTimes.push(`${label.replace(/ \([^)]{9,}\)$/, '')} ${seconds(Date.now() - t0)}`);
  if (r.status !== 0) failedSteps.push(label);
  return r.status === 0;
}

function seconds(ms) {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

if (!run('native modules for Node', process.execPath, ['scripts/native-abi.mjs', 'node'])) {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

// Type checks and the linters count as one check each: a failure CI must see.
for (const [label, args] of [
  ['lint (eslint: house rules, import cycles)', ['eslint', '.']],
  ['format (prettier --check)', ['prettier', '--check', '.']],
  ['typecheck (node)', ['tsc', '--noEmit', '-p', 'tsconfig.node.json']],
  ['typecheck (e2e)', ['tsc', '--noEmit', '-p', 'tsconfig.e2e.json']],
  ['typecheck (svelte)', ['svelte-check', '--tsconfig', './tsconfig.web.json', '--fail-on-warnings']],
]) {
  if (run(label, npx, args)) passed += 1;
  else failed += 1;
}

// The build comes first: the boot tests in the vitest run load the BUILT app (out/), and
// the browser tests serve the built renderer.
const built = run('build (electron-vite)', npx, ['electron-vite', 'build']);

rmSync(`${results}/vitest.json`, { force: true });
const vitestOk = run(
  'vitest (node + renderer projects)',
  npx,
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}/vitest.json`],
  built ? { SUIKOUJI_BUILT: '1' } : {},
);
const vitest = readJson(`${results}/vitest.json`);
// The names of failed tests, repeated at the very end: a CI log is often read from its tail.
const failedNames = [];
if (vitest) {
  for (const file of vitest.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failedNames.push(`vitest ${file.name}: ${(file.message ?? 'failed to load').split('\n')[0]}`);
    }
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') {
        failedNames.push(`vitest ${t.fullName} — ${(t.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300)}`);
      }
    }
  }
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  // A suite that fails to load has no failed tests but a failed file.
  if (!vitestOk && (vitest.numFailedTests ?? 0) === 0) failed += Math.max(1, vitest.numFailedTestSuites ?? 0);
} else if (!vitestOk) {
  failed += 1;
}

if (!built) failed += 1;
else {
  rmSync(`${results}/playwright.json`, { force: true });
  const e2eOk = run('browser tests (Playwright + Chromium)', npx, ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${results}/playwright.json`,
  });
  const pw = readJson(`${results}/playwright.json`);
  if (pw?.stats) {
    passed += (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
    failed += pw.stats.unexpected ?? 0;
    const walk = (suite, path) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status === 'unexpected') failedNames.push(`playwright ${[...path, spec.title].join(' › ')}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
    };
    for (const suite of pw.suites ?? []) walk(suite, [suite.title]);
    skipped += pw.stats.skipped ?? 0;
    if (!e2eOk && (pw.stats.unexpected ?? 0) === 0) failed += 1;
  } else if (!e2eOk) {
    failed += 1;
  }
}

const total = Math.round((Date.now() - started) / 1000);
console.log(`\nWall-clock per step: ${stepTimes.join(', ')}; ${Math.floor(total / 60)} min ${total % 60} s in all`);
if (failedNames.length) console.log(`\nFailed tests:\n${failedNames.map((n) => `  ✗ ${n}`).join('\n')}`);
if (failedSteps.length) console.log(`\nFailed steps: ${failedSteps.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);
