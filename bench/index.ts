// `npm run bench` — runs every suite in bench/suites and prints a table, or one JSON object
// with `--json` so figures can be tracked over time. `--only PREFIX` runs the suites that hold
// metrics starting with PREFIX (a suite name, or a metric's like `ledger.balances`) and shows only those.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createContext, type Metric, type Suite } from './harness.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;

const here = dirname(fileURLToPath(import.meta.url));
const suiteDir = join(here, 'suites');
const files = readdirSync(suiteDir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .sort();

const results: Record<string, Metric> = {};
const log = (line: string) => {
  if (!json) process.stdout.write(line + '\n');
};

for (const file of files) {
  const mod = (await import(pathToFileURL(join(suiteDir, file)).href)) as { default: Suite };
  const suite = mod.default;
  if (only && !suite.name.startsWith(only) && !only.startsWith(`${suite.name}.`)) continue;
  log(`… ${suite.name}`);
  await suite.run(createContext((name, metric) => (results[name] = metric)));
}

if (json) {
  process.stdout.write(JSON.stringify(results) + '\n');
} else {
  const rows = Object.entries(results)
    .filter(([name]) => !only || name.startsWith(only))
    .map(([name, m]) => [
      name,
      m.p50_ms !== undefined ? `${m.p50_ms}` : '',
      m.p99_ms !== undefined ? `${m.p99_ms}` : '',
      m.value !== undefined ? `${m.value}${m.unit ? ' ' + m.unit : ''}` : '',
      m.n !== undefined ? `${m.n}` : '',
      m.budget ?? '',
      m.ok === undefined ? '' : m.ok ? 'ok' : 'OVER',
    ]);
  const header = ['metric', 'p50 ms', 'p99 ms', 'value', 'n', 'budget', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  log('');
  log(line(header));
  log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of rows) log(line(row));
}
