// The Chinese streaming models sherpa-onnx publishes, and where each can be downloaded from.
// Every source says where its URL and its pins come from (`origin`) and whether the URL was
// confirmed from the model's own public material (`confirmed`); a source without a SHA-256
// for every byte it installs is `unverified` to the user, who is asked once before using it.

export const RELEASE_BASE = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models';

import type { ModelSourceId as SourceId } from '@shared/ipc/models';

export type { SourceId };

/**
 * Hosts a download may be redirected to, per source. GitHub answers release downloads with a
 * redirect to its asset host (objects.githubusercontent.com, and since 2025
 * release-assets.githubusercontent.com); Hugging Face answers LFS files with a redirect to its
 * CDN (cdn-lfs*.hf.co / huggingface.co, and the Xet bridge cas-bridge.xethub.hf.co).
 * hf-mirror.com's redirect targets are not documented: only its own host is allowed, so a
 * redirect elsewhere fails that source and the next one is tried.
 */
// ModelScope: no entry lists it. We found no public record of these sherpa-onnx models on
// modelscope.cn (the sherpa docs name only GitHub releases, Hugging Face repositories and the
// third-party GitHub proxy hub.nuaa.cf, which we do not trust with the pins); its hosts are here
// so a confirmed entry can add it without touching the downloader.
export const SOURCE_HOSTS: Record<SourceId, readonly string[]> = {
  github: ['github.com', 'objects.githubusercontent.com', 'release-assets.githubusercontent.com'],
  huggingface: [
    'huggingface.co',
    'cdn-lfs.huggingface.co',
    'cdn-lfs-us-1.huggingface.co',
    'cdn-lfs.hf.co',
    'cdn-lfs-us-1.hf.co',
    'cas-bridge.xethub.hf.co',
  ],
  'hf-mirror': ['hf-mirror.com'],
  modelscope: ['modelscope.cn', 'www.modelscope.cn'],
};

export interface PinnedFile {
  /** Relative to the model folder, `/` separated. */
  path: string;
  /** Exact size when `sha256` is set; otherwise an upper bound the download may not pass. */
  bytes: number;
  /** Lower-case hex, or null when no public material gives it. */
  sha256: string | null;
}

interface SourceCommon {
  id: SourceId;
  /** The URL was read in the model's public documentation or its publisher's repository. */
  confirmed: boolean;
  /** Where the URL and each pin come from, for the next person who checks them. */
  origin: string;
  /** Hosts (`host[:port]`) the download may start at or be redirected to. */
  hosts: readonly string[];
}

/** One `.tar.bz2` holding `<folder>/…`. */
export interface ArchiveSource extends SourceCommon {
  kind: 'archive';
  url: string;
  bytes: number;
  sha256: string | null;
}

/** The model folder's files one by one (a Hugging Face style repository: `<base>/<path>`). */
export interface FilesSource extends SourceCommon {
  kind: 'files';
  baseUrl: string;
  files: readonly PinnedFile[];
}

export type ModelSource = ArchiveSource | FilesSource;

export interface CatalogEntry {
  /** The archive's name without `.tar.bz2`, which is also the folder inside it. */
  id: string;
  name: string;
  description: string;
  /** The first source's download size, shown before a download starts. */
  archiveBytes: number;
  /**
   * Bytes the model's files take once unpacked (what the archive's files add up to). An archive
   * that unpacks to more than UNPACKED_MARGIN times this is refused (see unpackedCap), so a
   * source, pinned or not, cannot fill the disk up to the global cap. Every catalog entry states
   * it; absent (a test's entry), only the global cap applies.
   */
  unpackedBytes?: number;
  /** The folder the archive unpacks to (relative, one level). */
  folder: string;
  /** Every file the runtime needs, relative to the folder. */
  requiredFiles: readonly string[];
  /** A WAV shipped inside the model, decoded once before the model is marked ready. */
  testWav: string;
  recommended: boolean;
  /** At least one; tried in the user's order, then this order. */
  sources: readonly ModelSource[];
}

/** True when every byte the source installs is checked against a SHA-256. */
export function isPinned(source: ModelSource): boolean {
  return source.kind === 'archive' ? source.sha256 !== null : source.files.every((f) => f.sha256 !== null);
}

/** Bytes the source downloads (upper bounds for unpinned files). */
export function sourceBytes(source: ModelSource): number {
  return source.kind === 'archive' ? source.bytes : source.files.reduce((sum, f) => sum + f.bytes, 0);
}

/**
 * How far past its stated `unpackedBytes` an archive may unpack. The stated sizes are read from
 * `ls -lh` listings (rounded to two or three digits) and leave out the test WAVs and READMEs;
 * a quarter more covers that, while a bomb is stopped within a quarter of the real size.
 */
export const UNPACKED_MARGIN = 1.25;

/** The bytes an entry's archive may unpack to: UNPACKED_MARGIN × its stated size, never past `globalCap`. */
export function unpackedCap(entry: Pick<CatalogEntry, 'unpackedBytes'>, globalCap: number): number {
  const stated = entry.unpackedBytes;
  return stated !== undefined && stated > 0 ? Math.min(globalCap, Math.ceil(stated * UNPACKED_MARGIN)) : globalCap;
}

const HF_14M = 'csukuangfj/sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23';

/**
 * The 14M model's files on Hugging Face. Pins: the encoder's and joiner's sha256 are the LFS
 * object ids of the repository's pointers (oid sha256:…, size …), as a public installer
 * manifest for this repository records them; tokens.txt is a plain git file (no LFS
 * pointer), its sha256 from the same manifest. The float decoder and the test WAV have no
 * public sha256 we could read, so their sizes are upper bounds and the source is unverified.
 */
const FILES_14M: readonly PinnedFile[] = [
  { path: 'encoder-epoch-99-avg-1.int8.onnx', bytes: 21_621_684, sha256: '1c556ea57cec304e55ec4b72e52c1cc098bb01476ed7d90f3de939fe126487b1' },
  { path: 'joiner-epoch-99-avg-1.int8.onnx', bytes: 1_795_562, sha256: 'a7cf9d82757bdcf786059454495a9ca95e4bd7347f72473fc08d794475c36169' },
  { path: 'tokens.txt', bytes: 48_697, sha256: '8b294db9045d6e5f94647f4c1eec1af4da143a75053c399611444b378ff966ac' },
  // The docs list the float decoder at 7.2M; bound at 8 MiB.
  { path: 'decoder-epoch-99-avg-1.onnx', bytes: 8 * 1024 * 1024, sha256: null },
  { path: 'test_wavs/0.wav', bytes: 2 * 1024 * 1024, sha256: null },
];

export const CATALOG: readonly CatalogEntry[] = [
  // Name, URL, folder, file names and test WAV: the sherpa docs,
  // https://k2-fsa.github.io/sherpa/onnx/pretrained_models/online-transducer/zipformer-transducer-models.html#sherpa-onnx-streaming-zipformer-zh-14m-2023-02-23
  // ("It is a small model", trained on WenetSpeech; the int8 command uses the int8 encoder
  // and joiner with the float decoder, test_wavs/0.wav; file sizes 21M/7.2M/1.7M).
  {
    id: 'sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23',
    name: '中文流式识别（小，约 74 MB）',
    description: '1400 万参数的中文流式模型，普通电脑上也很快，适合记账口述',
    archiveBytes: 74_004_050,
    // APPROXIMATE. The sherpa docs list the unpacked archive's *.onnx (ls -lh on macOS, MiB,
    // rounded): 1.8 + 7.2 + 21 + 39 + 1.7 + 6.8 = 77.5 MiB; tokens.txt is 48 697 bytes (pinned
    // above); the test WAVs are not listed. Rounded up to 79 MiB. It fits the archive: 74.0 MB
    // of bzip2 for ~81 MB of mostly float weights.
    unpackedBytes: 79 * 1024 * 1024,
    folder: 'sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23',
    requiredFiles: ['encoder-epoch-99-avg-1.int8.onnx', 'decoder-epoch-99-avg-1.onnx', 'joiner-epoch-99-avg-1.int8.onnx', 'tokens.txt'],
    testWav: 'test_wavs/0.wav',
    recommended: true,
    sources: [
      {
        id: 'github',
        kind: 'archive',
        url: `${RELEASE_BASE}/sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23.tar.bz2`,
        bytes: 74_004_050,
        // Size and SHA-256 of the release asset as an independent installer pins them (a
        // public Flutter app's model manifest); k2-fsa publishes no checksum for its assets.
        sha256: '2cbd71b640d9c37d3784f29367333a4577b0398b62e9deeed418170b081cba8b',
        confirmed: true,
        origin: 'URL: the sherpa docs page above; size and sha256: a third-party manifest, not upstream',
        hosts: SOURCE_HOSTS.github,
      },
      {
        id: 'huggingface',
        kind: 'files',
        baseUrl: `https://huggingface.co/${HF_14M}/resolve/main`,
        files: FILES_14M,
        confirmed: false,
        origin: `Repository named in the sherpa docs' heading for this model (${HF_14M}); file list and pins from a third-party manifest; not opened here`,
        hosts: SOURCE_HOSTS.huggingface,
      },
      {
        id: 'hf-mirror',
        kind: 'files',
        baseUrl: `https://hf-mirror.com/${HF_14M}/resolve/main`,
        files: FILES_14M,
        confirmed: false,
        origin: 'hf-mirror.com mirrors huggingface.co path for path (its own front page); same files and pins as Hugging Face',
        hosts: SOURCE_HOSTS['hf-mirror'],
      },
    ],
  },
  // URL and folder: the asr-models release, linked from the sherpa docs page above. File
  // names (encoder.int8.onnx, decoder.onnx, joiner.int8.onnx, tokens.txt) and test_wavs/0.wav:
  // command lines of projects that run this archive with the sherpa-onnx CLI; not confirmed on
  // the docs page itself. Size APPROXIMATE: 132 634 597 bytes as recorded by one such project;
  // no public SHA-256, so it is unverified and the size cap is that figure plus a margin.
  {
    id: 'sherpa-onnx-streaming-zipformer-zh-int8-2025-06-30',
    name: '中文流式识别（大，约 133 MB）',
    description: '2025 年的中文流式模型（int8），更准确，需要更多内存和计算',
    archiveBytes: 132_634_597,
    // APPROXIMATE. The sherpa docs list the unpacked folder (zipformer-transducer-models.rst,
    // ls -lh): README.md 317 B, decoder.onnx 4.9M, encoder.int8.onnx 154M, joiner.int8.onnx
    // 1.0M, tokens.txt 20K, test_wavs/ (three WAVs, sizes not listed) ≈ 160 MiB. A third-party
    // project records the four model files at 167 360 920 bytes (159.6 MiB) in all, which
    // agrees. Rounded up to 162 MiB for the WAVs.
    unpackedBytes: 162 * 1024 * 1024,
    folder: 'sherpa-onnx-streaming-zipformer-zh-int8-2025-06-30',
    requiredFiles: ['encoder.int8.onnx', 'decoder.onnx', 'joiner.int8.onnx', 'tokens.txt'],
    testWav: 'test_wavs/0.wav',
    recommended: false,
    sources: [
      {
        id: 'github',
        kind: 'archive',
        url: `${RELEASE_BASE}/sherpa-onnx-streaming-zipformer-zh-int8-2025-06-30.tar.bz2`,
        bytes: 132_634_597,
        sha256: null,
        confirmed: true,
        origin: 'URL: the asr-models release linked from the sherpa docs; size: a third-party record; no sha256 found',
        hosts: SOURCE_HOSTS.github,
      },
    ],
  },
  // Name and training data: the sherpa docs, zipformer-transducer-models.html
  // ("csukuangfj/sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20 (Bilingual,
  // Chinese + English)"); release URL: sherpa-onnx's node-addon test script, which downloads
  // asr-models/<id>.tar.bz2. File names: sherpa-onnx's Swift example (int8 encoder/joiner,
  // float decoder, epoch-99-avg-1). Size APPROXIMATE (~488 MiB as noted by projects
  // downloading it); no public SHA-256.
  {
    id: 'sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20',
    name: '中英双语流式识别（约 490 MB）',
    description: '中文夹杂英文也能识别，体积较大',
    archiveBytes: 488 * 1024 * 1024,
    // APPROXIMATE. The sherpa docs list the unpacked archive's *.onnx (ls -lh, MiB, GNU
    // rounding up): 13 + 14 + 174 + 315 + 3.1 + 13 = 532.1 MiB; the Hugging Face repository's
    // copies of the same six files add up to 555 MB (529 MiB), which agrees; tokens.txt is
    // 56 kB there and the test WAVs are not listed. Rounded up to 534 MiB.
    unpackedBytes: 534 * 1024 * 1024,
    folder: 'sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20',
    requiredFiles: ['encoder-epoch-99-avg-1.int8.onnx', 'decoder-epoch-99-avg-1.onnx', 'joiner-epoch-99-avg-1.int8.onnx', 'tokens.txt'],
    testWav: 'test_wavs/0.wav',
    recommended: false,
    sources: [
      {
        id: 'github',
        kind: 'archive',
        url: `${RELEASE_BASE}/sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20.tar.bz2`,
        bytes: 488 * 1024 * 1024,
        sha256: null,
        confirmed: true,
        origin: 'URL: sherpa-onnx node-addon test script; size approximate; no sha256 found',
        hosts: SOURCE_HOSTS.github,
      },
    ],
  },
];
