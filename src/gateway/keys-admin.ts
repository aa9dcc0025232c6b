// `npm run gateway:keys`: issues, revokes and lists the per-install API keys, in the store the
// gateway reads (GATEWAY_KEYS: Redis or a keys file). Run it with the gateway's environment.
import { Redis } from 'ioredis';
import { loadGatewayConfig } from './config';
import { fileKeyStore, issueKey, redisKeyStore, revokeKey, type AccountKeyRecord, type KeyStore } from './keys';

const USAGE = `Usage: npm run gateway:keys -- issue NAME | revoke ID | list [--json]

Per-install API keys for the gateway: each install (a phone, a computer, a person) gets its own
key, with its own rate limit (RATE_LIMIT_*_PER_MIN per key, and RATE_LIMIT_*_PER_ADDRESS_PER_MIN
for all keys at one address). The app sends it as X-API-Key (its 网关 API Key setting).

  issue NAME   a new key for NAME; printed once — the store keeps only its SHA-256
  revoke ID    refuse that key from now on (every instance within a second); kept in the list
  list         every key: id, name, when issued, when revoked (never the key)
  --json       list as JSON lines
  --help       this text

Reads the gateway's environment: GATEWAY_KEYS=redis with REDIS_URL (every instance shares the
keys), or GATEWAY_KEYS=/absolute/path/keys.json (a gateway without Redis; the file is written
with mode 600 and the gateway rereads it when it changes).

Examples:
  GATEWAY_KEYS=redis REDIS_URL=redis://127.0.0.1:6379 npm run gateway:keys -- issue "小明的手机"
  GATEWAY_KEYS=/etc/suikouji/keys.json npm run gateway:keys -- revoke k3f9a0c2d1

Exit: 0 done, 1 failed (the store is unreachable, no such key), 2 bad usage or configuration.`;

function fail(code: 1 | 2, message: string): never {
  console.error(message);
  process.exit(code);
}

async function openStore(): Promise<{ store: KeyStore; close(): void }> {
  let config;
  try {
    config = loadGatewayConfig();
  } catch (err) {
    fail(2, (err as Error).message);
  }
  const where = config.accountKeys;
  if (!where) fail(2, 'GATEWAY_KEYS is not set: set it to "redis" (with REDIS_URL) or to the absolute path of a keys file');
  if (where.store === 'file') return { store: fileKeyStore(where.path), close: () => {} };
  // Not the gateway's fail-fast link: an operator's command may wait a few seconds, then says why.
  const client = new Redis(config.redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 3_000, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    fail(1, `cannot reach Redis (REDIS_URL): ${(err as Error).message}`);
  }
  return { store: redisKeyStore(client), close: () => client.disconnect() };
}

const describe = (r: AccountKeyRecord) => `${r.id}  ${r.name}  issued ${r.createdAt}${r.revokedAt ? `  REVOKED ${r.revokedAt}` : ''}`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const [command, ...rest] = args.filter((a) => a !== '--json');
  const json = args.includes('--json');
  if (command === 'issue' ? rest.length !== 1 || !rest[0]!.trim() : command === 'revoke' ? rest.length !== 1 : command !== 'list' || rest.length) {
    fail(2, USAGE);
  }
  const { store, close } = await openStore();
  try {
    if (command === 'issue') {
      const { record, key } = await issueKey(store, rest[0]!.trim(), new Date());
      console.log(`issued ${record.id} for ${record.name}; the key (shown only now):`);
      console.log(key);
    } else if (command === 'revoke') {
      const record = await revokeKey(store, rest[0]!, new Date());
      if (!record) fail(1, `no key with id ${rest[0]}`);
      console.log(`revoked ${describe(record)}`);
    } else {
      const records = (await store.list()).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      for (const r of records)
        console.log(json ? JSON.stringify({ id: r.id, name: r.name, createdAt: r.createdAt, revokedAt: r.revokedAt ?? null }) : describe(r));
      if (!json && !records.length) console.log('no keys issued');
    }
  } finally {
    close();
  }
}

void main().catch((err: unknown) => fail(1, (err as Error).message));
