// A real nginx for the gateway's multi-instance tests and bench, run with the repository's own
// deployment config (deploy/gateway/nginx.conf): only its ports are replaced. A child of the test
// (daemon off) with its own prefix, pid file and logs in a temp folder — never the system service.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forget, freePort, killOnExit, runs, stopChild, waitForPort } from './child-daemons';

export const DEPLOY_NGINX_CONF = fileURLToPath(new URL('../../deploy/gateway/nginx.conf', import.meta.url));

let available: boolean | undefined;

/** Whether nginx is installed (suites `describe.skipIf(!nginxAvailable())`). */
export function nginxAvailable(): boolean {
  available ??= runs('nginx', ['-v']);
  return available;
}

/**
 * The deployment config with its listen port and its two upstream instances replaced; throws
 * when the file no longer has them, so the test cannot silently run another config.
 */
export function renderGatewayNginxConf(conf: string, ports: { listen: number; instances: [number, number] }): string {
  const swaps: [RegExp, string][] = [
    [/^(\s*)listen 8080;/m, `$1listen 127.0.0.1:${ports.listen};`],
    [/^(\s*server )127\.0\.0\.1:8081( )/m, `$1127.0.0.1:${ports.instances[0]}$2`],
    [/^(\s*server )127\.0\.0\.1:8082( )/m, `$1127.0.0.1:${ports.instances[1]}$2`],
  ];
  let out = conf;
  for (const [pattern, replacement] of swaps) {
    if (!pattern.test(out)) throw new Error(`deploy/gateway/nginx.conf no longer matches ${pattern}: update renderGatewayNginxConf`);
    out = out.replace(pattern, replacement);
  }
  return out;
}

export interface NginxServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  pid: number;
  /** The access and error logs so far (for a failing test's message). */
  logs(): string;
  /** SIGTERM (SIGKILL after 5 s), wait, remove the temp folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** The optional modules whose temp paths point under /var/lib/nginx unless moved. */
function tempPathDirectives(dir: string): string {
  const built = spawnSync('nginx', ['-V'], { encoding: 'utf8' }).stderr ?? '';
  const lines = [`client_body_temp_path ${dir}/tmp/body;`, `proxy_temp_path ${dir}/tmp/proxy;`];
  for (const m of ['fastcgi', 'uwsgi', 'scgi']) {
    if (!built.includes(`--without-http_${m}_module`)) lines.push(`${m}_temp_path ${dir}/tmp/${m};`);
  }
  return lines.join('\n    ');
}

/**
 * Starts nginx on a free loopback port in front of two gateway instances, with the deployment
 * config; `extraHttp` adds lines to the http block (e.g. another server block the bench needs).
 */
export async function startGatewayNginx(options: { instances: [number, number]; extraHttp?: string; workers?: number }): Promise<NginxServer> {
  if (!nginxAvailable()) throw new Error('nginx is not installed (apt-get install nginx-light)');
  const dir = mkdtempSync(join(tmpdir(), 'suikouji-nginx-'));
  // Workers run as nobody/www-data when the test runs as root: they must reach the temp folders.
  chmodSync(dir, 0o755);
  for (const sub of ['tmp', 'logs']) mkdirSync(join(dir, sub), { mode: 0o777 });
  chmodSync(join(dir, 'tmp'), 0o777);
  const port = await freePort();
  writeFileSync(
    join(dir, 'suikouji-gateway.conf'),
    renderGatewayNginxConf(readFileSync(DEPLOY_NGINX_CONF, 'utf8'), { listen: port, instances: options.instances }),
  );
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes ${options.workers ?? 1};
events { worker_connections 1024; }
http {
    access_log ${dir}/logs/access.log;
    ${tempPathDirectives(dir)}
    ${options.extraHttp ?? ''}
    include ${dir}/suikouji-gateway.conf;
}
`,
  );
  const child: ChildProcess = spawn(
    'nginx',
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/logs/error.log;`],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 10_000) stderr += d.toString();
  });
  if (child.pid !== undefined) killOnExit(child.pid, dir, 'SIGTERM');
  const logs = () => {
    const read = (f: string) => {
      try {
        return readFileSync(join(dir, 'logs', f), 'utf8');
      } catch {
        return '';
      }
    };
    return `${stderr}${read('error.log')}${read('access.log')}`;
  };
  try {
    await waitForPort(port, child, 'nginx');
  } catch (err) {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n${logs()}`);
  }
  let stopped = false;
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    logs,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopChild(child);
      forget(child.pid!);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
