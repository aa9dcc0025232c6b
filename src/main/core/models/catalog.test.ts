import { describe, expect, it } from 'vitest';
import { modelIdSchema } from '@shared/ipc/models';
import { CATALOG, RELEASE_BASE } from './catalog';

describe('catalog', () => {
  it.each(CATALOG.map((entry) => [entry.id, entry] as const))(
    '%s: an id the IPC accepts, its release URL and folder, tokens.txt required',
    (id, entry) => {
      expect(modelIdSchema.safeParse(id).success).toBe(true);
      expect(entry.url).toBe(`${RELEASE_BASE}/${id}.tar.bz2`);
      expect(entry.folder).toBe(id);
      expect(entry.requiredFiles).toContain('tokens.txt');
      expect(entry.requiredFiles.filter((f) => f.endsWith('.onnx'))).toHaveLength(3);
      expect(entry.archiveBytes).toBeGreaterThan(10_000_000);
    },
  );

  it('recommends exactly one model, the small Chinese one', () => {
    expect(CATALOG.filter((e) => e.recommended).map((e) => e.id)).toEqual(['sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23']);
  });
});
