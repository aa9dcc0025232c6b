// Issue 40, item 2: per-install keys. Issued and revoked by the real admin command (`npm run
// gateway:keys`, a child process), stored hashed in a REAL redis-server (or in a keys file for a
// gateway without Redis), checked by two gateway instances (Fastify apps in this process).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '@shared/gateway';
import { startFakeChatServer, type FakeChatServer } from '../../test/support/gateway/fake-chat-server';
import { TEST_LLM_KEY } from '../../test/support/gateway/gateway-harness';
import { issuedKey, runKeysAdmin } from '../../test/support/gateway/keys-admin';
import { redisAvailable, startRedis, type RedisServer } from '../../test/support/redis-server';
import { buildGatewayApp } from './app';
import { loadGatewayConfig } from './config';

const parseReply = JSON.stringify({ transactions: [{ amount: 35, description: '午饭' }] });
const SHARED_KEY = 'the-old-shared-key';

let chat: FakeChatServer;
let apps: { app: FastifyInstance; url: string }[] = [];
beforeAll(async () => {
  chat = await startFakeChatServer(() => ({ content: parseReply }));
});
afterAll(async () => chat?.close());
afterEach(async () => {
  await Promise.all(apps.map(({ app }) => app.close()));
  apps = [];
});

async function startPair(env: Record<string, string>) {
  for (let i = 0; i < 2; i++) {
    const config = loadGatewayConfig({
      LLM_BASE_URL: chat.baseUrl,
      LLM_API_KEY: TEST_LLM_KEY,
      // The test's connections come from 127.0.0.1: it plays the proxy and picks each client's address.
      TRUST_PROXY: '127.0.0.1',
      ...env,
    });
    const app = await buildGatewayApp({ config, logger: false, authFailureDelayMs: 0, retry: { retries: 0, baseDelayMs: 1 } });
    apps.push({ app, url: await app.listen({ port: 0, host: '127.0.0.1' }) });
  }
  return apps;
}

async function parse(at: { url: string }, key: string | null, address = '203.0.113.1') {
  const res = await fetch(at.url + GATEWAY_PATHS.parse, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify({ text: '午饭35' }),
  });
  const body = (await res.json()) as { error?: string };
  return { status: res.status, error: body.error, retryAfter: res.headers.get('retry-after') };
}

/**
 * Sends the key to an instance every 20 ms until it is refused; resolves with when (ms since the
 * epoch). Started before the revocation, so the first refusal is seen as soon as it happens.
 */
async function firstRefusal(at: { url: string }, key: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { status } = await parse(at, key);
    if (status === 401) return Date.now();
    if (status !== 200) throw new Error(`unexpected ${status}`);
    if (Date.now() > deadline) throw new Error('never refused');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!redisAvailable())(`per-install keys in Redis${redisAvailable() ? '' : ' (skipped: redis-server not installed)'}`, () => {
  let redis: RedisServer;
  let admin: Redis;
  const keysEnv = () => ({ REDIS_URL: redis.url, GATEWAY_KEYS: 'redis' });
  const issue = async (name: string) => issuedKey(await runKeysAdmin(keysEnv(), ['issue', name]));

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  });
  afterAll(async () => {
    admin?.disconnect();
    if (redis) process.kill(redis.pid, 'SIGCONT');
    await redis?.stop();
  });
  beforeEach(async () => {
    await admin.flushall();
  });

  it('issued by the admin command, stored only as a hash, accepted by every instance; the shared key still works', async () => {
    const { key, id } = await issue('小明的手机');
    const stored = await admin.hgetall('suikouji:keys');
    expect(Object.keys(stored)).toEqual([id]);
    expect(JSON.parse(stored[id]!)).toMatchObject({ id, name: '小明的手机', hash: createHash('sha256').update(key).digest('hex') });
    expect(JSON.stringify(stored)).not.toContain(key.slice(15));

    const listed = await runKeysAdmin(keysEnv(), ['list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject({ id, name: '小明的手机', revokedAt: null });
    expect(listed.stdout).not.toContain(key.slice(15));

    const [a, b] = await startPair({ ...keysEnv(), GATEWAY_API_KEY: SHARED_KEY });
    expect((await parse(a!, key)).status).toBe(200);
    expect((await parse(b!, key)).status).toBe(200);
    expect((await parse(a!, SHARED_KEY)).status).toBe(200);
    // Another secret under a real id, a made-up id, no key: all plain 401s.
    expect(await parse(b!, `skj_${id}_${'A'.repeat(43)}`)).toMatchObject({ status: 401, error: 'unauthorized' });
    expect((await parse(b!, `skj_zzzzzzzzzz_${'A'.repeat(43)}`)).status).toBe(401);
    expect((await parse(a!, null)).status).toBe(401);
  });

  it('limits per account across addresses AND per address across accounts; the shared key keeps its per-address bucket', async () => {
    const [one, two] = await Promise.all([issue('one'), issue('two')]);
    const [a, b] = await startPair({
      ...keysEnv(),
      GATEWAY_API_KEY: SHARED_KEY,
      RATE_LIMIT_LLM_PER_MIN: '3',
      RATE_LIMIT_LLM_PER_ADDRESS_PER_MIN: '4',
    });
    const X = '198.51.100.1';
    const Y = '198.51.100.2';
    // One install moving between two addresses (and instances): 3 in all, not 3 per address.
    const first: number[] = [];
    for (const [i, address] of [X, Y, X, Y, X].entries()) first.push((await parse(i % 2 ? b! : a!, one.key, address)).status);
    expect(first).toEqual([200, 200, 200, 429, 429]);
    // A second install at X: X has 2 of its 4 left, so the second install's third request is refused
    // there although it has used only 2 of its own 3 …
    expect([(await parse(a!, two.key, X)).status, (await parse(b!, two.key, X)).status]).toEqual([200, 200]);
    const full = await parse(a!, two.key, X);
    expect(full).toMatchObject({ status: 429, error: 'rate_limit_exceeded' });
    expect(Number(full.retryAfter)).toBeGreaterThan(0);
    // … and passes at Y (its own budget), once.
    expect((await parse(b!, two.key, Y)).status).toBe(200);
    expect((await parse(a!, two.key, Y)).status).toBe(429);
    // The shared key: per address only, as before (its own bucket, RATE_LIMIT_LLM_PER_MIN).
    const shared: number[] = [];
    for (let i = 0; i < 4; i++) shared.push((await parse(i % 2 ? b! : a!, SHARED_KEY, X)).status);
    expect(shared).toEqual([200, 200, 200, 429]);
  });

  it('a revoked key is refused by every instance within a second', async () => {
    const { key, id } = await issue('lost phone');
    const pair = await startPair({ ...keysEnv(), RATE_LIMIT_LLM_PER_MIN: '1000' });
    const refusals = pair.map((at) => firstRefusal(at, key));
    const revoked = await runKeysAdmin(keysEnv(), ['revoke', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const revokedAt = Date.parse(JSON.parse((await admin.hget('suikouji:keys', id))!).revokedAt);
    for (const refusedAt of await Promise.all(refusals)) expect(refusedAt - revokedAt).toBeLessThan(1000);
    const listed = await runKeysAdmin(keysEnv(), ['list']);
    expect(listed.stdout).toMatch(new RegExp(`^${id}  lost phone  issued \\S+  REVOKED `, 'm'));
  });

  it('Redis stalled: a key an instance knows keeps working; a key it never saw is a 502, not a 401', async () => {
    const [known, unseen] = await Promise.all([issue('known'), issue('unseen')]);
    const [a] = await startPair(keysEnv());
    expect((await parse(a!, known.key)).status).toBe(200);
    process.kill(redis.pid, 'SIGSTOP');
    try {
      expect((await parse(a!, known.key)).status).toBe(200);
      expect(await parse(a!, unseen.key)).toMatchObject({ status: 502, error: 'upstream_error' });
    } finally {
      process.kill(redis.pid, 'SIGCONT');
    }
    expect((await parse(a!, unseen.key)).status).toBe(200);
  });
});

describe('per-install keys in a file (a gateway without Redis)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'skj-keys-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('issued into the file (hashes only, mode 600), accepted, and refused within a second of its revocation', async () => {
    const env = { GATEWAY_KEYS: join(dir, 'keys.json') };
    const { key, id } = issuedKey(await runKeysAdmin(env, ['issue', '办公室电脑']));
    const text = readFileSync(env.GATEWAY_KEYS, 'utf8');
    expect(text).toContain(createHash('sha256').update(key).digest('hex'));
    expect(text).not.toContain(key.slice(15));
    expect(statSync(env.GATEWAY_KEYS).mode & 0o777).toBe(0o600);

    const pair = await startPair(env);
    for (const at of pair) expect((await parse(at, key)).status).toBe(200);
    expect((await parse(pair[0]!, 'any-other-key')).status).toBe(401);
    const refusals = pair.map((at) => firstRefusal(at, key));
    expect((await runKeysAdmin(env, ['revoke', id])).code).toBe(0);
    const revokedAt = Date.parse((JSON.parse(readFileSync(env.GATEWAY_KEYS, 'utf8')) as { keys: { revokedAt: string }[] }).keys[0]!.revokedAt);
    for (const refusedAt of await Promise.all(refusals)) expect(refusedAt - revokedAt).toBeLessThan(1000);
  });

  it('the admin command refuses bad usage and a missing GATEWAY_KEYS with exit 2', async () => {
    const [noStore, badUsage] = await Promise.all([runKeysAdmin({}, ['list']), runKeysAdmin({ GATEWAY_KEYS: join(dir, 'keys.json') }, ['issue'])]);
    expect(noStore).toMatchObject({ code: 2, stdout: '' });
    expect(noStore.stderr).toMatch(/GATEWAY_KEYS is not set/);
    expect(badUsage.code).toBe(2);
    expect(badUsage.stderr).toMatch(/^Usage: npm run gateway:keys/);
    expect((await runKeysAdmin({ GATEWAY_KEYS: join(dir, 'keys.json') }, ['revoke', 'nosuchid00'])).code).toBe(1);
  });
});
