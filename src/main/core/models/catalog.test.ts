import { describe, expect, it } from 'vitest';
import { MODEL_SOURCE_IDS, modelIdSchema } from '@shared/ipc/models';
import { CATALOG, isPinned, RELEASE_BASE, SOURCE_HOSTS } from './catalog';

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

  it('the recommended model has a pinned source, so a first use never needs the unverified question', () => {
    const recommended = CATALOG.filter((e) => e.recommended);
    expect(recommended.map((e) => e.id)).toEqual(['sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23']);
    expect(recommended[0]!.sources.some(isPinned)).toBe(true);
  });
});
