#!/usr/bin/env node
// Keeps the native modules (better-sqlite3, naudiodon, node-vad, segfault-handler) built
// for whichever runtime is about to load them: Electron's ABI for `npm start`/`npm run dev`,
// Node's for `npm test`/bench/tools. A stamp in node_modules records the current build, so
// switching costs one rebuild and staying put costs nothing.
//
//   node scripts/native-abi.mjs node       # before tests, bench, CLI tools
//   node scripts/native-abi.mjs electron   # before npm start / npm run dev
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const MODULES = ['better-sqlite3', 'naudiodon', 'node-vad', 'segfault-handler'];
const root = process.cwd();
const stampPath = join(root, 'node_modules', '.native-abi.json');
const target = process.argv[2];

if (target !== 'node' && target !== 'electron') {
  console.error('usage: native-abi.mjs node|electron');
  process.exit(2);
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8'));
  } catch {
    return null;
  }
}

function writeStamp(stamp) {
  writeFileSync(stampPath, JSON.stringify(stamp, null, 2) + '\n');
}

function rebuild(env, label) {
  console.log(`[native-abi] rebuilding ${MODULES.join(', ')} for ${label} (one-time, about a minute)…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['rebuild', ...MODULES], { stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`[native-abi] rebuild for ${label} failed; see the output above.`);
    process.exit(result.status ?? 1);
  }
}

/** Loads the addons in this (Node) process: the real test of the current build. */
function loadsUnderNode() {
  const require = createRequire(join(root, 'package.json'));
  try {
    const Database = require('better-sqlite3');
    new Database(':memory:').close();
    require('node-vad');
    return true;
  } catch (err) {
    if (/NODE_MODULE_VERSION|was compiled against a different Node\.js version|invalid ELF|ERR_DLOPEN_FAILED/.test(String(err?.message ?? err))) {
      return false;
    }
    throw err;
  }
}

const stamp = readStamp();

if (target === 'node') {
  const abi = process.versions.modules;
  if (stamp?.runtime === 'node' && stamp.abi === abi && loadsUnderNode()) process.exit(0);
  if (!loadsUnderNode()) rebuild({ npm_config_runtime: 'node', npm_config_target: process.versions.node }, `Node ${process.versions.node}`);
  if (!loadsUnderNode()) {
    console.error('[native-abi] native modules still do not load under Node after a rebuild.');
    process.exit(1);
  }
  writeStamp({ runtime: 'node', abi, version: process.versions.node });
} else {
  const pkgPath = join(root, 'node_modules', 'electron', 'package.json');
  if (!existsSync(pkgPath)) {
    console.error('[native-abi] electron is not installed; run `npm install` first.');
    process.exit(1);
  }
  const version = JSON.parse(readFileSync(pkgPath, 'utf8')).version;
  if (stamp?.runtime === 'electron' && stamp.version === version) process.exit(0);
  // Electron's documented "using npm" recipe: prebuilt binaries for Electron where a module
  // publishes them, otherwise a source build against Electron's headers. nodedir is cleared
  // because it points node-gyp at Node's headers, which have the wrong ABI.
  rebuild(
    {
      npm_config_runtime: 'electron',
      npm_config_target: version,
      npm_config_disturl: 'https://electronjs.org/headers',
      npm_config_nodedir: '',
    },
    `Electron ${version}`,
  );
  writeStamp({ runtime: 'electron', version });
}
