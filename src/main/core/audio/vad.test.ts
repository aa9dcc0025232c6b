import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeProgram, renderMandarin } from '../../../../test/support/speech';
import { segmentPcm } from './segment-pcm';

// Real node-vad on real espeak-ng Mandarin, fed from memory (the microphone path is
// checked in virtual-mic.test.ts).
describe('node-vad + segmenter on Mandarin speech', () => {
  let clips: Int16Array[] = [];
  beforeAll(() => {
    clips = ['午饭三十五块', '打车花了二十', '工资收到九千'].map(renderMandarin);
  });
  afterAll(() => void (clips = []));

  it('finds each utterance within ±150 ms of the speech', async () => {
    const { pcm, speech } = composeProgram([
      { silenceMs: 1200 },
      { clip: clips[0]! },
      { silenceMs: 1800 },
      { clip: clips[1]! },
      { silenceMs: 2500 },
      { clip: clips[2]! },
      { silenceMs: 1500 },
    ]);
    const { utterances } = await segmentPcm(pcm, { silenceMs: 1000 });
    expect(utterances).toHaveLength(3);
    utterances.forEach((u, i) => {
      expect(Math.abs(u.startMs - speech[i]!.startMs)).toBeLessThanOrEqual(150);
      expect(Math.abs(u.endMs - speech[i]!.endMs)).toBeLessThanOrEqual(150);
    });
  });

  it('merges utterances whose gap is shorter than the trailing silence', async () => {
    const { pcm } = composeProgram([{ silenceMs: 500 }, { clip: clips[0]! }, { silenceMs: 700 }, { clip: clips[1]! }, { silenceMs: 1500 }]);
    expect((await segmentPcm(pcm, { silenceMs: 1000 })).utterances).toHaveLength(1);
    expect((await segmentPcm(pcm, { silenceMs: 500 })).utterances).toHaveLength(2);
  });

  it('finds nothing in digital silence or quiet noise', async () => {
    const { pcm } = composeProgram([{ silenceMs: 3000 }, { noiseMs: 5000, amplitude: 60 }, { silenceMs: 1000 }]);
    const result = await segmentPcm(pcm);
    expect(result.utterances).toEqual([]);
  });
});
