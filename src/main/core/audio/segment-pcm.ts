import { SpeechSegmenter, type SegmenterOptions } from './segmenter';
import { VadClassifier, VAD_WINDOW_SAMPLES, type VadMode } from './vad';

export interface Utterance {
  startMs: number;
  endMs: number;
}

/**
 * The microphone pipeline (node-vad + segmenter) over audio already in memory, for the
 * `voice vad` tool and the benchmark: the same code decides, only the source differs.
 */
export async function segmentPcm(
  pcm: Int16Array,
  options: SegmenterOptions & { vadMode?: VadMode } = {},
): Promise<{ utterances: Utterance[]; misfires: number }> {
  const classifier = new VadClassifier(options.vadMode ?? 'aggressive');
  const segmenter = new SpeechSegmenter(options);
  const utterances: Utterance[] = [];
  const collect = (events: ReturnType<SpeechSegmenter['push']>) => {
    for (const e of events) if (e.type === 'speechEnd') utterances.push({ startMs: e.startMs, endMs: e.endMs });
  };
  for (let at = 0; at < pcm.length; at += VAD_WINDOW_SAMPLES) {
    for (const d of await classifier.classify(pcm.subarray(at, at + VAD_WINDOW_SAMPLES))) {
      collect(segmenter.push(d.voiced, d.atMs, d.durationMs));
    }
  }
  collect(segmenter.flush());
  return { utterances, misfires: segmenter.misfires };
}
