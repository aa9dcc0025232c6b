import { describe, expect, it } from 'vitest';
import { classifyIntent } from './intent';

describe('Layer-1 intents', () => {
  it.each([
    ['确认第二笔', 3, { intent: 'confirmItem', index: 1 }],
    ['第4笔确认', 5, { intent: 'confirmItem', index: 3 }],
    ['第二笔不要了', 3, { intent: 'cancelItem', index: 1 }],
    ['删掉第三笔', 3, { intent: 'cancelItem', index: 2 }],
    ['最后那笔删了', 4, { intent: 'cancelItem', index: 3 }],
    ['最后一笔确认', 2, { intent: 'confirmItem', index: 1 }],
  ])('%s (of %d) is an item operation', (text, size, expected) => {
    expect(classifyIntent(text, size)).toEqual(expected);
  });

  it.each([
    ['中间那笔删了吧', 3, { intent: 'cancelItem', index: 1 }],
    ['中间的不要了', 5, { intent: 'cancelItem', index: 2 }],
    ['确认中间那个', 3, { intent: 'confirmItem', index: 1 }],
    ['等一下，第二笔删掉', 3, { intent: 'cancelItem', index: 1 }],
  ])('%s (of %d) names one item', (text, size, expected) => {
    expect(classifyIntent(text, size)).toEqual(expected);
  });

  it('asks which item 中间 is on a card of an even count', () => {
    expect(classifyIntent('中间那笔删了', 4)).toEqual({ intent: 'correction', index: null });
    expect(classifyIntent('中间的确认', 2)).toEqual({ intent: 'correction', index: null });
  });

  it.each(['等等还有一笔没说', '慢着我再加一个', '稍等，我还没说完', '等一下', '且慢，漏了一笔', '我再想想'])('%s keeps listening', (text) => {
    expect(classifyIntent(text, 2)).toEqual({ intent: 'continueRecording', index: null });
  });

  it.each(['先别保存', '等会儿再存', '先不要确认', '别急着保存', '等会再保存', '暂时别提交', '好的，先别保存', '先别删', '先放着'])(
    '%s keeps the card: neither cancel nor confirm',
    (text) => {
      expect(classifyIntent(text, 2).intent).toBe('continueRecording');
    },
  );

  it('still cancels on a refusal of the entry itself, and confirms on 先保存', () => {
    for (const text of ['不保存', '别保存', '先不记了', '别记了']) expect(classifyIntent(text, 2).intent).toBe('cancel');
    expect(classifyIntent('先保存', 2).intent).toBe('confirm');
    expect(classifyIntent('等一下，不要了', 2).intent).toBe('cancel');
  });

  it('reports an ordinal beyond the batch as out of range instead of clamping it', () => {
    expect(classifyIntent('确认第五笔', 3)).toEqual({ intent: 'confirmItem', index: 4, outOfRange: true });
    expect(classifyIntent('删掉第十一笔', 10)).toEqual({ intent: 'cancelItem', index: 10, outOfRange: true });
  });

  it('never turns an item operation into a whole-batch one (the original bug)', () => {
    expect(classifyIntent('确认第二笔', 3).intent).not.toBe('confirm');
    expect(classifyIntent('删掉第三笔', 3).intent).not.toBe('cancel');
  });

  it.each(['全都确认', '一起确认', '全部确认', '都确认', '确认', '好的', '嗯对', '没问题', 'OK', '对的'])('%s → confirm', (text) => {
    expect(classifyIntent(text, 3)).toEqual({ intent: 'confirm', index: null });
  });

  it.each(['全都不要', '不要了', '取消', '算了不记了', '删掉'])('%s → cancel', (text) => {
    expect(classifyIntent(text, 3).intent).toBe('cancel');
  });

  it('follows the priority cancel > exit > continueRecording > confirm', () => {
    expect(classifyIntent('好的，取消', 2).intent).toBe('cancel');
    expect(classifyIntent('好的退出', 2).intent).toBe('exit');
    expect(classifyIntent('好，继续', 2).intent).toBe('continueRecording');
    expect(classifyIntent('退出吧，算了', 2).intent).toBe('cancel');
  });

  it.each(['不对', '不是', '不确认', '不行', '第二笔不对'])('%s is not a confirmation', (text) => {
    expect(['correction', 'newInput']).toContain(classifyIntent(text, 3).intent);
  });

  it('reads a declined change followed by a confirmation as confirm', () => {
    expect(classifyIntent('不改了，就这样确认', 2).intent).toBe('confirm');
    expect(classifyIntent('不用改了', 2).intent).toBe('confirm');
  });

  it('sends new content to Layer 2 even when it starts like continueRecording', () => {
    expect(classifyIntent('还有一笔奶茶15', 2).intent).toBe('newInput');
    expect(classifyIntent('还有', 2).intent).toBe('continueRecording');
  });

  it.each(['嗯', '啊', '哦', '。', '……', '', '   ', '嗯嗯嗯'])('%j is filler', (text) => {
    expect(classifyIntent(text, 2)).toEqual({ intent: 'filler', index: null });
  });

  it('marks corrections as correction and other content as newInput', () => {
    expect(classifyIntent('第三笔改为支出', 4).intent).toBe('correction');
    expect(classifyIntent('午饭35', 1).intent).toBe('newInput');
  });
});
