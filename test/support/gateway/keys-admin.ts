// `npm run gateway:keys` as the operator runs it: a separate Node process with the gateway's
// environment (tsx's loader, the repository as working directory).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface KeysAdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runKeysAdmin(env: Record<string, string>, args: string[]): Promise<KeysAdminRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/gateway/keys-admin.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The key an `issue` printed (its own line), and the id inside it. */
export function issuedKey(run: KeysAdminRun): { key: string; id: string } {
  const key = /^(skj_([a-z0-9]{10})_\S+)$/m.exec(run.stdout);
  if (run.code !== 0 || !key) throw new Error(`gateway:keys issue failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  return { key: key[1]!, id: key[2]! };
}
