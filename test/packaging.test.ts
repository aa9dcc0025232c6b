import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { minimatch } from 'minimatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { unpackedPath, WORKER_PACKAGES } from '../src/main/core/worker-require';

// What an installer holds is not the project folder: electron-builder packs out/**, the
// resources and the PRODUCTION dependencies into app.asar, and unpacks only what
// electron-builder.yml says. These checks read the built bundle and that file the way the
// packager does, so a module left in devDependencies or a native library left inside the
// archive (which cannot be loaded from there) fails here instead of on a user's machine.

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const builder = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as { asarUnpack: string[]; files: string[] };

beforeAll(() => {
  if (process.env['SUIKOUJI_BUILT'] !== '1' || !existsSync(join(root, 'out/main/index.js'))) {
    execFileSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root, stdio: 'pipe' });
  }
}, 180_000);

/** Bare specifiers the bundle loads at run time: static imports and createRequire(…)(…) calls. */
function runtimeModules(bundle: string): string[] {
  const found = new Set<string>();
  for (const m of bundle.matchAll(/^import\s[^'"]*?from\s+["']([^"']+)["']/gm)) found.add(m[1]!);
  for (const m of bundle.matchAll(/^import\s+["']([^"']+)["']/gm)) found.add(m[1]!);
  for (const m of bundle.matchAll(/(?:\brequire|createRequire\([^)]*\))\(\s*["']([^"']+)["']\s*\)/g)) found.add(m[1]!);
  for (const m of bundle.matchAll(/\bimport\(["']([^"']+)["']\)/g)) found.add(m[1]!);
  return [...found].filter((s) => !s.startsWith('.') && !s.startsWith('/'));
}

const packageName = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);

describe('the installed app has what the built bundle loads', () => {
  it('every module the main bundle loads is a Node builtin, electron, or a production dependency', () => {
    const bundle = readFileSync(join(root, 'out/main/index.js'), 'utf8');
    const modules = runtimeModules(bundle);
    // The natives are loaded lazily; seeing them proves the scan reads both import forms.
    expect(modules).toEqual(expect.arrayContaining(['better-sqlite3', 'naudiodon', 'node-vad', 'uiohook-napi']));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const unpackaged = modules.filter((m) => !builtins.has(m) && m !== 'electron' && !(packageName(m) in pkg.dependencies));
    expect(unpackaged).toEqual([]);
  });

  it('the preload bundle requires nothing but electron (a sandboxed preload can require nothing else)', () => {
    const preload = readFileSync(join(root, 'out/preload/index.cjs'), 'utf8');
    expect(runtimeModules(preload)).toEqual(['electron']);
  });
});

/** Production packages as npm installed them (package-lock: not dev-only). */
function productionPackageDirs(): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([path, info]) => path.startsWith('node_modules/') && !info.dev)
    .map(([path]) => path)
    .filter((path) => existsSync(join(root, path)));
}

const NATIVE = /\.(node|so(\.\d+)*|dylib|dll)$/;

/** Every file of one package, relative to the project (nested packages are listed on their own in the lock file). */
function packageFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return out;
}

const nativeFiles = (dir: string) => packageFiles(dir).filter((file) => NATIVE.test(file));

describe('electron-builder.yml unpacks what native code must load from a real file', () => {
  it('every native addon and shared library of the production dependencies is unpacked from the asar', () => {
    const natives = productionPackageDirs().flatMap(nativeFiles);
    expect(natives).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^node_modules\/better-sqlite3\/.*\.node$/),
        expect.stringMatching(/^node_modules\/naudiodon\/.*libportaudio/),
        expect.stringMatching(/^node_modules\/node-vad\/.*\.node$/),
        expect.stringMatching(/^node_modules\/uiohook-napi\/.*\.node$/),
      ]),
    );
    const packed = natives.filter((file) => !builder.asarUnpack.some((pattern) => minimatch(file, pattern, { dot: true })));
    expect(packed).toEqual([]);
  });

  it('the icons native code reads are unpacked, and the app files are packaged', () => {
    for (const icon of ['resources/icon.png', 'resources/tray.png', 'resources/tray@2x.png']) {
      expect(existsSync(join(root, icon))).toBe(true);
      expect(
        builder.asarUnpack.some((p) => minimatch(icon, p, { dot: true })),
        icon,
      ).toBe(true);
    }
    for (const file of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'package.json']) {
      expect(
        builder.files.some((p) => !p.startsWith('!') && minimatch(file, p, { dot: true })),
        file,
      ).toBe(true);
    }
  });
});

describe('workers and the recognizer process find their packages outside the asar', () => {
  // A worker thread or child process cannot read inside app.asar: this lays out
  // app.asar.unpacked with exactly the files asarUnpack selects, and a plain worker requires
  // each worker package from there, so a dependency left inside the archive fails here.
  const resources = mkdtempSync(join(tmpdir(), 'skj-unpacked-'));
  afterAll(() => rmSync(resources, { recursive: true, force: true }));
  const requireHere = createRequire(import.meta.url);
  const entries = Object.fromEntries(
    WORKER_PACKAGES.map((name) => [name, unpackedPath(join(resources, 'app.asar', relative(root, requireHere.resolve(name))))]),
  );
  beforeAll(() => {
    const unpacked = productionPackageDirs()
      .flatMap(packageFiles)
      .filter((file) => builder.asarUnpack.some((pattern) => minimatch(file, pattern, { dot: true })));
    for (const file of unpacked) cpSync(join(root, file), join(resources, 'app.asar.unpacked', file));
  }, 60_000);

  it('better-sqlite3, sherpa-onnx-node, tar, unbzip2-stream, write-excel-file (with fflate) and read-excel-file load from app.asar.unpacked alone', async () => {
    expect(Object.values(entries).every((path) => path.startsWith(join(resources, 'app.asar.unpacked')))).toBe(true);
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      const Database = require(workerData['better-sqlite3']);
      const db = new Database(':memory:');
      const sqlite = db.prepare('select 6 * 7 as n').get().n;
      db.close();
      const sherpa = require(workerData['sherpa-onnx-node']);
      const tar = require(workerData['tar']);
      const bunzip = require(workerData['unbzip2-stream'])();
      bunzip.destroy();
      const writeExcelFile = require(workerData['write-excel-file/node']);
      const readExcelFile = require(workerData['read-excel-file/node']);
      // Zipping is fflate's, required by write-excel-file itself: the workbook proves both load;
      // reading it back proves read-excel-file and its unzipper (unzipper-esm) load too.
      writeExcelFile([['导出']]).toBuffer().then((xlsx) => readExcelFile(xlsx).then((sheets) => parentPort.postMessage({
        sqlite,
        recognizer: typeof sherpa.OnlineRecognizer,
        untar: typeof tar.x,
        xlsx: xlsx.subarray(0, 2).toString(),
        readBack: sheets[0].data,
        zippedBy: Object.keys(require.cache).filter((path) => path.includes('fflate')),
        unzippedBy: Object.keys(require.cache).filter((path) => path.includes('unzipper-esm')).length > 0,
        // Every package these required came from there too (vitest preloads one file of its own).
        outside: Object.keys(require.cache).filter((path) => /node_modules/.test(path) && !/app\\.asar\\.unpacked|node_modules.vitest/.test(path)),
        from: require.resolve(workerData['sherpa-onnx-node']),
      })));`;
    const answer = await new Promise<Record<string, unknown>>((done, fail) => {
      const worker = new Worker(code, { eval: true, workerData: entries });
      worker.once('message', done);
      worker.once('error', fail);
    });
    expect(answer).toEqual({
      sqlite: 42,
      recognizer: 'function',
      untar: 'function',
      xlsx: 'PK',
      readBack: [['导出']],
      unzippedBy: true,
      outside: [],
      zippedBy: [expect.stringContaining(join('app.asar.unpacked', 'node_modules', 'fflate'))],
      from: entries['sherpa-onnx-node'],
    });
    expect(dirname(String(answer['from']))).toContain('app.asar.unpacked');
  }, 60_000);

  it('the picture recognizer (@gutenye/ocr-node on onnxruntime-node, with sharp) reads a picture from app.asar.unpacked alone', async () => {
    // ESM: its imports never show in require.cache, but outside the project nothing else could
    // resolve them — a package left in the archive fails to import here.
    expect(resources.startsWith(root)).toBe(false);
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      const { pathToFileURL } = require('node:url');
      process.env.ORT_DISABLE_TELEMETRY = '1';
      const sharp = require(workerData['sharp']);
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="80"><rect width="100%" height="100%" fill="#fff"/>'
        + '<text x="16" y="52" font-family="WenQuanYi Micro Hei" font-size="34" fill="#111">支付成功</text></svg>';
      Promise.all([import(pathToFileURL(workerData['@gutenye/ocr-node']).href), sharp(Buffer.from(svg)).png().toBuffer()])
        .then(async ([{ default: Ocr }, png]) => {
          const lines = await (await Ocr.create()).detect(png);
          parentPort.postMessage({
            text: lines.map((l) => l.text).join(''),
            outside: Object.keys(require.cache).filter((path) => /node_modules/.test(path) && !/app\\.asar\\.unpacked|node_modules.vitest/.test(path)),
            runtime: require.resolve(workerData['onnxruntime-node']),
          });
        })
        .catch((err) => parentPort.postMessage({ error: String(err && err.stack) }));`;
    const answer = await new Promise<Record<string, unknown>>((done, fail) => {
      const worker = new Worker(code, { eval: true, workerData: entries });
      worker.once('message', (message: Record<string, unknown>) => {
        done(message);
        void worker.terminate();
      });
      worker.once('error', fail);
    });
    expect(answer).toEqual({ text: '支付成功', outside: [], runtime: entries['onnxruntime-node'] });
    expect(String(answer['runtime'])).toContain(join('app.asar.unpacked', 'node_modules', 'onnxruntime-node'));
  }, 60_000);
});

describe("each installer holds only its own platform's onnxruntime", () => {
  // electron-builder adds a platform's `files` to the top-level ones, drops every file a `!`
  // pattern matches from the node modules, and expands ${arch} to the target's arch first
  // (its own expandMacro, as it runs). onnxruntime-node ships all five builds in one package.
  const { expandMacro } = createRequire(import.meta.url)('app-builder-lib/out/util/macroExpander') as {
    expandMacro: (pattern: string, arch: string | null, appInfo: object, extra?: object) => string;
  };
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, { files?: string[] }>;
  const runtimeFiles = packageFiles('node_modules/onnxruntime-node');
  const build = /^node_modules\/onnxruntime-node\/bin\/napi-v6\/([^/]+)\/([^/]+)\//;

  it.each([
    ['linux', 'linux', 'x64'],
    ['linux', 'linux', 'arm64'],
    ['mac', 'darwin', 'arm64'],
    ['mac', 'darwin', 'x64'],
    ['win', 'win32', 'x64'],
    ['win', 'win32', 'arm64'],
  ])('%s %s: keeps bin/napi-v6/%s/%s only', (os, platform, arch) => {
    const excludes = [...builder.files, ...(config[os]?.files ?? [])]
      .filter((p) => p.startsWith('!'))
      .map((p) => expandMacro(p.slice(1), arch, {}, { os }));
    const kept = runtimeFiles.filter((file) => !excludes.some((pattern) => minimatch(file, pattern, { dot: true })));
    const builds = new Set(kept.flatMap((file) => (build.exec(file) ? [build.exec(file)!.slice(1).join('/')] : [])));
    // The Intel Mac has no build to keep (ocrSupport says so in 设置).
    expect([...builds]).toEqual(platform === 'darwin' && arch === 'x64' ? [] : [`${platform}/${arch}`]);
    expect(kept).toEqual(expect.arrayContaining(['node_modules/onnxruntime-node/dist/index.js', 'node_modules/onnxruntime-node/package.json']));
    expect(runtimeFiles.filter((file) => build.test(file)).length).toBeGreaterThan(kept.filter((file) => build.test(file)).length);
  });
});
