import { describe, expect, it } from 'vitest';
import { MODEL_SOURCE_IDS, modelIdSchema } from '@shared/ipc/models';
import { CATALOG, isPinned, RELEASE_BASE, SOURCE_HOSTS, sourceBytes, unpackedCap } from './catalog';
import { DEFAULT_CAPS } from './extract';

describe('catalog', () => {
  it.each(CATALOG.map((entry) => [entry.id, entry] as const))(
    '%s: an id the IPC accepts, a GitHub release source first, its folder, tokens.txt required',
    (id, entry) => {
      expect(modelIdSchema.safeParse(id).success).toBe(true);
      const github = entry.sources[0]!;
      expect(github.id).toBe('github');
      expect(github.kind === 'archive' && github.url).toBe(`${RELEASE_BASE}/${id}.tar.bz2`);
      expect(entry.folder).toBe(id);
      expect(entry.requiredFiles).toContain('tokens.txt');
      expect(entry.requiredFiles.filter((f) => f.endsWith('.onnx'))).toHaveLength(3);
      expect(entry.archiveBytes).toBeGreaterThan(10_000_000);
    },
  );

  it('every source: a known id, https, its URL on one of its own hosts, a pin that looks like SHA-256, provenance written down', () => {
    for (const entry of CATALOG) {
      for (const source of entry.sources) {
        expect(MODEL_SOURCE_IDS).toContain(source.id);
        expect(source.hosts).toEqual(SOURCE_HOSTS[source.id]);
        expect(source.origin.length).toBeGreaterThan(10);
        const urls = source.kind === 'archive' ? [source.url] : source.files.map((f) => `${source.baseUrl}/${f.path}`);
        for (const url of urls) {
          expect(url.startsWith('https://')).toBe(true);
          expect(source.hosts).toContain(new URL(url).host);
        }
        const pins = source.kind === 'archive' ? [source.sha256] : source.files.map((f) => f.sha256);
        for (const pin of pins) if (pin !== null) expect(pin).toMatch(/^[0-9a-f]{64}$/);
        // Every file the runtime needs is among what a per-file source downloads.
        if (source.kind === 'files') for (const f of [...entry.requiredFiles, entry.testWav]) expect(source.files.map((x) => x.path)).toContain(f);
      }
    }
  });

  it('every entry states its unpacked size: a cap of 1.25× it lies below the global cap and above what its sources download and pin', () => {
    for (const entry of CATALOG) {
      expect([entry.id, Number.isSafeInteger(entry.unpackedBytes)]).toEqual([entry.id, true]);
      const cap = unpackedCap(entry, DEFAULT_CAPS.maxBytes);
      expect(cap).toBe(Math.ceil(entry.unpackedBytes! * 1.25));
      expect(cap).toBeLessThan(DEFAULT_CAPS.maxBytes);
      for (const source of entry.sources) {
        // bzip2 does not shrink model weights to nothing: the model unpacks to more than its archive.
        expect(entry.unpackedBytes!).toBeGreaterThan(source.kind === 'archive' ? source.bytes : 0);
        // The exact sizes a per-file source pins are files the unpacked archive holds too.
        if (source.kind === 'files')
          expect(entry.unpackedBytes!).toBeGreaterThan(sourceBytes({ ...source, files: source.files.filter((f) => f.sha256) }));
      }
    }
  });

  it('unpackedCap: 1.25× the stated size, never past the global cap; the global cap for an entry stating none', () => {
    expect(unpackedCap({ unpackedBytes: 100 }, 1000)).toBe(125);
    expect(unpackedCap({ unpackedBytes: 101 }, 1000)).toBe(127);
    expect(unpackedCap({ unpackedBytes: 900 }, 1000)).toBe(1000);
    expect(unpackedCap({}, 1000)).toBe(1000);
  });

  it('the recommended model has a pinned source, so a first use never needs the unverified question', () => {
    const recommended = CATALOG.filter((e) => e.recommended);
    expect(recommended.map((e) => e.id)).toEqual(['sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23']);
    expect(recommended[0]!.sources.some(isPinned)).toBe(true);
  });
});
