// `npm run bench` — runs every suite in bench/suites and prints a table, or one JSON object
// with `--json` so figures can be tracked over time. `--help` lists the suites and options.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createContext, type Metric, type Suite, type SuiteOption } from './harness.ts';
import { BENCH_TEMP_PREFIX, benchTempRoot } from './temp.ts';

const OPTIONS: SuiteOption[] = [
  { name: '--json', description: 'one JSON object of every metric instead of the table' },
  {
    name: '--only PREFIX',
    description:
      'only the suites holding metrics that start with PREFIX (a suite, e.g. ledger, or a metric, e.g. ledger.balances), and only those metrics',
  },
  { name: '--help', description: 'this text' },
];

const here = dirname(fileURLToPath(import.meta.url));
const suiteDir = join(here, 'suites');

async function loadSuites(): Promise<Suite[]> {
  const files = readdirSync(suiteDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  const suites: Suite[] = [];
  for (const file of files) suites.push(((await import(pathToFileURL(join(suiteDir, file)).href)) as { default: Suite }).default);
  return suites;
}

function table(rows: string[][], indent: string): string[] {
  const width = Math.max(...rows.map(([first]) => first!.length));
  return rows.map(([first, rest]) => `${indent}${first!.padEnd(width)}  ${rest}`);
}

function usage(suites: readonly Suite[]): string {
  const suiteRows = suites.flatMap((s) => [[s.name, s.description], ...(s.options ?? []).map((o) => ['', `${o.name}: ${o.description}`])]);
  return [
    'Usage: npm run bench [-- OPTIONS]',
    '',
    'Runs every suite (or those --only picks) and prints one table: p50 and p99 in ms, or a value,',
    'the number of samples, the budget and whether the figure is within it.',
    '',
    'Options:',
    ...table(
      OPTIONS.map((o) => [o.name, o.description]),
      '  ',
    ),
    '',
    'Suites (bench/suites), with the options and environment variables each reads:',
    ...table(suiteRows, '  '),
    '',
    `Temporary files go to one folder, $TMPDIR/${BENCH_TEMP_PREFIX}XXXXXX, removed when the run ends or is`,
    'interrupted (Ctrl+C exits 130, SIGTERM 143), with the servers it started.',
    '',
    'Examples:',
    '  npm run bench -- --only ledger',
    '  npm run bench -- --only ledger.listPage1M --json',
    '  BENCH_SYNC_SKIP_1M=1 npm run bench -- --only sync',
  ].join('\n');
}

/** Options no suite reads (a typo would otherwise start the whole run): the first one, or null. */
function unknownOption(args: readonly string[], suites: readonly Suite[]): string | null {
  const known = new Map(
    [...OPTIONS, ...suites.flatMap((s) => s.options ?? [])]
      .filter((o) => o.name.startsWith('-'))
      .map((o) => [o.name.split(' ')[0]!, o.name.includes(' ')] as const),
  );
  known.set('-h', false);
  for (let i = 0; i < args.length; i++) {
    const takesValue = known.get(args[i]!);
    if (takesValue === undefined) return args[i]!;
    if (takesValue) i++;
  }
  return null;
}

async function main(args: string[]): Promise<number> {
  const suites = await loadSuites();
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(usage(suites) + '\n');
    return 0;
  }
  const unknown = unknownOption(args, suites);
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
  if (unknown !== null || (onlyAt >= 0 && only === undefined)) {
    process.stderr.write(`${unknown === null ? '--only needs a PREFIX' : `unknown option ${unknown}`} (npm run bench -- --help lists the options)\n`);
    return 2;
  }
  const json = args.includes('--json');
  benchTempRoot();

  const results: Record<string, Metric> = {};
  const log = (line: string) => {
    if (!json) process.stdout.write(line + '\n');
  };

  for (const suite of suites) {
    if (only && !suite.name.startsWith(only) && !only.startsWith(`${suite.name}.`)) continue;
    log(`… ${suite.name}`);
    await suite.run(createContext((name, metric) => (results[name] = metric)));
  }

  if (json) {
    process.stdout.write(JSON.stringify(results) + '\n');
    return 0;
  }
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
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
