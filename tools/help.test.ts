import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/gateway/config';

const root = fileURLToPath(new URL('..', import.meta.url));
/** tsx's loader by its path: the tools run from an empty working directory. */
const tsx = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href;

/** Every `npm run` tool: its script name and the file the script runs. */
const TOOLS = {
  nlp: 'tools/nlp.ts',
  ocr: 'tools/ocr.ts',
  'eval:llm': 'tools/eval-llm.ts',
  voice: 'tools/voice.ts',
  session: 'tools/session.ts',
  ledger: 'tools/ledger.ts',
  sync: 'tools/sync.ts',
  bench: 'bench/index.ts',
  gateway: 'src/gateway/server.ts',
  'gateway:keys': 'src/gateway/keys-admin.ts',
};

/** One folder per tool: its working directory, HOME and TMPDIR, so whatever it creates shows. */
const sandbox = mkdtempSync(join(tmpdir(), 'skj-help-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function runHelp(name: string, file: string): Promise<{ code: number | null; stdout: string; stderr: string; left: string[] }> {
  const dir = join(sandbox, name.replace(':', '-'));
  for (const sub of ['home', 'tmp']) mkdirSync(join(dir, sub), { recursive: true });
  const child = spawn(process.execPath, ['--import', tsx, join(root, file), '--help'], {
    cwd: dir,
    env: {
      ...process.env,
      HOME: join(dir, 'home'),
      TMPDIR: join(dir, 'tmp'),
      // The path aliases, from another working directory; and no compile cache in TMPDIR.
      TSX_TSCONFIG_PATH: join(root, 'tsconfig.node.json'),
      TSX_DISABLE_CACHE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // A tool that starts its work instead (a server listening, a benchmark running) is cut off here.
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const left = ['.', 'home', 'tmp'].flatMap((sub) =>
        readdirSync(join(dir, sub))
          .filter((entry) => sub !== '.' || !['home', 'tmp'].includes(entry))
          .map((entry) => join(sub, entry)),
      );
      resolve({ code, stdout, stderr, left });
    });
  });
}

describe('every npm run tool answers --help', () => {
  // Spawned together: each costs a Node start and the TypeScript loader.
  const runs = Object.fromEntries(Object.entries(TOOLS).map(([name, file]) => [name, runHelp(name, file)]));

  it.each(Object.keys(TOOLS))(
    '%s: usage on stdout, exit 0, nothing created',
    async (name) => {
      const { code, stdout, stderr, left } = await runs[name]!;
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: npm run ${name}\\b`, 'm'));
      expect(stdout).toMatch(/^Examples?:$/m);
      expect(left).toEqual([]);
    },
    90_000,
  );

  it('bench --help lists every suite with a line about it, and the options', async () => {
    const { stdout } = await runs.bench!;
    const suites = readdirSync(join(root, 'bench/suites')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const listed = stdout.split('Suites (bench/suites)')[1]!.split('\n\n')[0]!;
    const rows = [...listed.matchAll(/^ {2}(\S+) {2,}(\S.*)$/gm)].map(([, name, about]) => ({ name, about }));
    expect(rows.map((r) => r.name!.replace('.', '-'))).toEqual(suites.map((f) => f.replace(/\.ts$/, '')));
    for (const row of rows) expect(row.about!.length, row.name).toBeGreaterThan(30);
    for (const option of ['--json', '--only PREFIX', '--help']) expect(stdout).toContain(`  ${option} `);
  }, 90_000);

  it('gateway --help names every environment variable the gateway reads', async () => {
    const { stdout } = await runs.gateway!;
    // The configuration reads the environment it is given: a recording one names every variable.
    const read = new Set<string>();
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_target, key) => {
        if (typeof key === 'string' && /^[A-Z][A-Z0-9_]*$/.test(key)) read.add(key);
        return undefined;
      },
    });
    loadGatewayConfig(env);
    expect(read.size).toBeGreaterThan(10);
    for (const name of read) expect(stdout).toMatch(new RegExp(`^  (\\w+, )*${name}\\b`, 'm'));
  }, 90_000);
});
