// The Chinese streaming models sherpa-onnx publishes as release assets, which the app can
// download. Sources, per fact, are in the comment above each entry. Where an archive size is
// marked approximate, the progress bar uses the server's Content-Length instead once the
// download starts; the catalog figure is only shown before that.

export const RELEASE_BASE = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models';

export interface CatalogEntry {
  /** The archive's name without `.tar.bz2`, which is also the folder inside it. */
  id: string;
  name: string;
  description: string;
  url: string;
  archiveBytes: number;
  /** The folder the archive unpacks to (relative, one level). */
  folder: string;
  /** Every file the runtime needs, relative to the folder. */
  requiredFiles: readonly string[];
  /** A WAV shipped inside the model, decoded once before the model is marked ready. */
  testWav: string;
  recommended: boolean;
}

export const CATALOG: readonly CatalogEntry[] = [
  // Name, URL, folder, file names and test WAV: the sherpa docs,
  // https://k2-fsa.github.io/sherpa/onnx/pretrained_models/online-transducer/zipformer-transducer-models.html#sherpa-onnx-streaming-zipformer-zh-14m-2023-02-23
  // ("It is a small model", trained on WenetSpeech; the int8 command uses the int8 encoder
  // and joiner with the float decoder, test_wavs/0.wav; file sizes 21M/7.2M/1.7M). The same
  // triple is what sherpa-onnx's Kotlin example code loads for this model ("encoder/joiner
  // int8, decoder float32", citing the same docs anchor). Archive size: 74 004 050 bytes, pinned together with its SHA-256 by
  // independent projects that download this asset; the docs give only the .onnx sizes.
  {
    id: 'sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23',
    name: '中文流式识别（小，约 74 MB）',
    description: '1400 万参数的中文流式模型，普通电脑上也很快，适合记账口述',
    url: `${RELEASE_BASE}/sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23.tar.bz2`,
    archiveBytes: 74_004_050,
    folder: 'sherpa-onnx-streaming-zipformer-zh-14M-2023-02-23',
    requiredFiles: ['encoder-epoch-99-avg-1.int8.onnx', 'decoder-epoch-99-avg-1.onnx', 'joiner-epoch-99-avg-1.int8.onnx', 'tokens.txt'],
    testWav: 'test_wavs/0.wav',
    recommended: true,
  },
  // URL and folder: the asr-models release, linked from the sherpa docs page above. File
  // names (encoder.int8.onnx, decoder.onnx, joiner.int8.onnx, tokens.txt) and test_wavs/0.wav:
  // command lines of projects that run this archive with the sherpa-onnx CLI; not confirmed on
  // the docs page itself. Archive size APPROXIMATE: 132 634 597 bytes as recorded by one such
  // project (others say ~127–132 MB); the download uses the server's Content-Length.
  {
    id: 'sherpa-onnx-streaming-zipformer-zh-int8-2025-06-30',
    name: '中文流式识别（大，约 133 MB）',
    description: '2025 年的中文流式模型（int8），更准确，需要更多内存和计算',
    url: `${RELEASE_BASE}/sherpa-onnx-streaming-zipformer-zh-int8-2025-06-30.tar.bz2`,
    archiveBytes: 132_634_597,
    folder: 'sherpa-onnx-streaming-zipformer-zh-int8-2025-06-30',
    requiredFiles: ['encoder.int8.onnx', 'decoder.onnx', 'joiner.int8.onnx', 'tokens.txt'],
    testWav: 'test_wavs/0.wav',
    recommended: false,
  },
  // Name and training data: the sherpa docs, zipformer-transducer-models.html
  // ("csukuangfj/sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20 (Bilingual,
  // Chinese + English)"); release URL: sherpa-onnx's node-addon test script, which downloads
  // asr-models/<id>.tar.bz2. File names: sherpa-onnx's Swift example (int8 encoder/joiner, float decoder, epoch-99-avg-1); test_wavs/0.wav: the
  // model's Hugging Face repo (csukuangfj/sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20).
  // Archive size APPROXIMATE (~488 MiB as noted by projects downloading it, not in the docs);
  // the download uses the server's Content-Length.
  {
    id: 'sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20',
    name: '中英双语流式识别（约 490 MB）',
    description: '中文夹杂英文也能识别，体积较大',
    url: `${RELEASE_BASE}/sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20.tar.bz2`,
    archiveBytes: 488 * 1024 * 1024,
    folder: 'sherpa-onnx-streaming-zipformer-bilingual-zh-en-2023-02-20',
    requiredFiles: ['encoder-epoch-99-avg-1.int8.onnx', 'decoder-epoch-99-avg-1.onnx', 'joiner-epoch-99-avg-1.int8.onnx', 'tokens.txt'],
    testWav: 'test_wavs/0.wav',
    recommended: false,
  },
];
