// Hostile archives, built header by header so every entry type and path can be said exactly.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelError } from './errors';
import { extractTarBz2, findSystemBzip2 } from './extract';
import { tempDir, removeTempDirs } from '../../../../test/support/model-fixtures';
import { rejection as rejectionWith } from '../../../../test/support/rejection';

const rejection = (promise: Promise<unknown>) => rejectionWith(promise, ModelError);
afterAll(removeTempDirs);

/** A ustar header: `type` '0' file, '1' hardlink, '2' symlink, '3' char device, '4' block device, '5' folder, '6' FIFO. */
function header(name: string, type: string, size = 0, linkname = ''): Buffer {
  const h = Buffer.alloc(512);
  const put = (text: string, at: number, len: number) => h.write(text, at, len, 'utf8');
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0';
  put(name, 0, 100);
  put(octal(type === '5' ? 0o755 : 0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  h.fill(' ', 148, 156);
  put(type, 156, 1);
  put(linkname, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return h;
}

function file(name: string, body: string | Buffer): Buffer {
  const data = Buffer.from(body);
  return Buffer.concat([header(name, '0', data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** The tar made of `parts`, closed by two zero blocks, compressed with the system bzip2. */
function bz2Tar(parts: Buffer[]): string {
  const path = join(tempDir('hostile'), 'a.tar.bz2');
  writeFileSync(path, execFileSync('bzip2', ['-c', '-1'], { input: Buffer.concat([...parts, Buffer.alloc(1024)]), maxBuffer: 1 << 30 }));
  return path;
}

const good = [header('model/', '5'), file('model/tokens.txt', 'a 0\n')];

/** Every path under `root`, relative, sorted. */
function tree(root: string): string[] {
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).map((p) => p.split('\\').join('/')).sort();
}

const decoders = findSystemBzip2() ? (['system', 'js'] as const) : (['js'] as const);

describe.each(decoders)('hostile archives (%s bzip2 decoder): refused, nothing written outside', (decoder) => {
  const cases: [string, Buffer[], RegExp][] = [
    ['a `..` path', [...good, file('model/../../escaped.txt', 'x')], /指向上级目录的路径/],
    ['an absolute path', [...good, file('/tmp/suikouji-planted.txt', 'x')], /绝对路径/],
    ['a symlink', [...good, header('model/link', '2', 0, '/etc/passwd')], /链接/],
    ['a symlink inside the folder', [...good, header('model/link', '2', 0, 'tokens.txt')], /链接/],
    ['a hardlink', [...good, header('model/hard', '1', 0, '/etc/passwd')], /链接/],
    ['a character device', [...good, header('model/null', '3')], /设备文件/],
    ['a block device', [...good, header('model/sda', '4')], /设备文件/],
    ['a FIFO', [...good, header('model/fifo', '6')], /设备文件/],
  ];

  it.each(cases)('%s → unsafe_archive naming it', async (_name, parts, reason) => {
    const out = tempDir('out');
    const dest = join(out, 'staging');
    const err = await rejection(extractTarBz2(bz2Tar(parts), dest, { decoder }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toMatch(/^模型压缩包含有不安全的内容（.+），已拒绝安装$/);
    expect(err.message).toMatch(reason);
    // Nothing beside the staging folder, and nothing but regular files and folders in it.
    expect(readdirSync(out)).toEqual(['staging']);
    expect(tree(dest).every((p) => p === 'model' || p === 'model/tokens.txt')).toBe(true);
    expect(existsSync('/tmp/suikouji-planted.txt')).toBe(false);
  });

  it('100 000 files → refused at the entry cap, long before all are written', async () => {
    const parts = [header('model/', '5')];
    for (let i = 0; i < 100_000; i++) parts.push(header(`model/f${i}`, '0', 0));
    const dest = join(tempDir('out'), 'staging');
    const err = await rejection(extractTarBz2(bz2Tar(parts), dest, { decoder }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toContain('文件数超过 2000');
    expect(tree(dest).length).toBeLessThanOrEqual(2001);
  });

  it('a file declared larger than the byte cap → refused before its bytes are written', async () => {
    const parts = [...good, header('model/encoder.onnx', '0', 3 * 1024 ** 3)];
    const dest = join(tempDir('out'), 'staging');
    const err = await rejection(extractTarBz2(bz2Tar(parts), dest, { decoder }));
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toContain('解压后超过 2048 MB');
    expect(existsSync(join(dest, 'model', 'encoder.onnx'))).toBe(false);
  });
});

describe.each(decoders)('a bz2 bomb (%s decoder)', (decoder) => {
  it('a ~20 KB archive expanding to 2 GiB behind a small tar → refused at the cap; peak memory measured and bounded', async () => {
    const work = tempDir('bomb');
    // The tar's own bytes end after tokens.txt; then 2 GiB of zeros, which tar reads as the
    // end-of-archive blocks and padding — so only the decoded-bytes cap can stop it. Built as
    // concatenated bzip2 streams (valid bzip2, as pbzip2 writes) so the test does not spend
    // half a minute compressing 2 GiB.
    const zeros64 = execFileSync('sh', ['-c', 'head -c 67108864 /dev/zero | bzip2 -9'], { maxBuffer: 1 << 20 });
    const bomb = join(work, 'bomb.tar.bz2');
    writeFileSync(bomb, Buffer.concat([execFileSync('bzip2', ['-c'], { input: Buffer.concat(good) }), ...Array<Buffer>(32).fill(zeros64)]));
    expect(statSync(bomb).size).toBeLessThan(32 * 1024);

    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const started = performance.now();
    const err = await rejection(extractTarBz2(bomb, join(work, 'staging'), { decoder, maxBytes: 64 * 1024 * 1024 })).finally(() =>
      clearInterval(sampler),
    );
    const growthMb = (peak - base) / 1024 / 1024;
    console.info(
      `bz2 bomb, ${decoder} decoder: refused after ${Math.round(performance.now() - started)} ms, peak RSS growth ${growthMb.toFixed(1)} MB`,
    );
    expect(err.code).toBe('unsafe_archive');
    expect(err.message).toContain('解压后超过 64 MB');
    // One bzip2 block expands to at most ~46 MB; the old decoder held the whole stream (GBs).
    expect(growthMb).toBeLessThan(200);
  });
});
