import { describe, expect, it } from 'vitest';
import { SpeechSegmenter, type SegmenterEvent } from './segmenter';

/** Feeds a pattern like "..###...." (one char per 30 ms window: # voiced, . silent). */
function run(segmenter: SpeechSegmenter, pattern: string, startMs = 0): SegmenterEvent[] {
  const events: SegmenterEvent[] = [];
  [...pattern].forEach((c, i) => events.push(...segmenter.push(c === '#', startMs + i * 30, 30)));
  return events;
}

const silence = (ms: number) => '.'.repeat(ms / 30);
const voice = (ms: number) => '#'.repeat(ms / 30);

describe('SpeechSegmenter', () => {
  it('starts after minSpeechMs of voice, dated at the first voiced window, and ends after the trailing silence', () => {
    const seg = new SpeechSegmenter({ minSpeechMs: 90, silenceMs: 990 });
    const events = run(seg, silence(300) + voice(600) + silence(990));
    expect(events).toEqual([
      { type: 'speechStart', startMs: 300 },
      { type: 'speechEnd', startMs: 300, endMs: 900, reason: 'silence' },
    ]);
  });

  it('keeps one utterance across pauses shorter than silenceMs (default 1 s)', () => {
    const seg = new SpeechSegmenter();
    const events = run(seg, voice(300) + silence(900) + voice(300) + silence(1020));
    expect(events.map((e) => e.type)).toEqual(['speechStart', 'speechEnd']);
    expect(events[1]).toMatchObject({ startMs: 0, endMs: 1500 });
  });

  it('honours a longer silenceMs so a thinking pause does not cut the speaker off', () => {
    const seg = new SpeechSegmenter({ silenceMs: 2500 });
    const events = run(seg, voice(300) + silence(2010) + voice(300) + silence(2520));
    expect(events.filter((e) => e.type === 'speechEnd')).toHaveLength(1);
  });

  it('counts a click shorter than minSpeechMs as a misfire, not speech', () => {
    const seg = new SpeechSegmenter({ minSpeechMs: 150 });
    const events = run(seg, silence(90) + voice(60) + silence(300) + voice(30) + silence(300));
    expect(events.map((e) => e.type)).toEqual(['misfire', 'misfire']);
    expect(events[0]).toEqual({ type: 'misfire', startMs: 90, endMs: 150, voicedMs: 60 });
    expect(seg.misfires).toBe(2);
  });

  it('bridges short gaps while confirming a start', () => {
    const seg = new SpeechSegmenter({ minSpeechMs: 120, candidateGapMs: 60 });
    const events = run(seg, '##.##' + silence(1020));
    expect(events[0]).toEqual({ type: 'speechStart', startMs: 0 });
  });

  it('cuts an utterance at maxUtteranceMs and starts a new one if speech goes on', () => {
    const seg = new SpeechSegmenter({ maxUtteranceMs: 3000, minSpeechMs: 60 });
    const events = run(seg, voice(4500) + silence(1020));
    expect(events).toEqual([
      { type: 'speechStart', startMs: 0 },
      { type: 'speechEnd', startMs: 0, endMs: 3000, reason: 'maxLength' },
      { type: 'speechStart', startMs: 3000 },
      { type: 'speechEnd', startMs: 3000, endMs: 4500, reason: 'silence' },
    ]);
  });

  it('flush ends speech in progress (paused for TTS) and abandons an unconfirmed start', () => {
    const seg = new SpeechSegmenter({ minSpeechMs: 90 });
    run(seg, voice(300));
    expect(seg.flush('paused')).toEqual([{ type: 'speechEnd', startMs: 0, endMs: 300, reason: 'paused' }]);
    run(seg, '#', 600);
    expect(seg.flush()).toEqual([{ type: 'misfire', startMs: 600, endMs: 630, voicedMs: 30 }]);
    expect(seg.inSpeech).toBe(false);
  });

  it('rejects a trailing silence outside 0.5–4 s', () => {
    expect(() => new SpeechSegmenter({ silenceMs: 400 })).toThrow(RangeError);
    expect(() => new SpeechSegmenter({ silenceMs: 4500 })).toThrow(/500–4000/);
    expect(() => new SpeechSegmenter({ silenceMs: 500 })).not.toThrow();
    expect(() => new SpeechSegmenter({ silenceMs: 4000 })).not.toThrow();
  });
});
