import { describe, expect, it } from 'vitest';
import { anyOf, words } from './words';

describe('word tables', () => {
  it('splits on any run of spaces and line breaks', () => {
    expect(
      words(`
        早饭  午饭
        晚饭 t恤
      `),
    ).toEqual(['早饭', '午饭', '晚饭', 't恤']);
  });

  it('makes an escaped alternation tried in table order', () => {
    expect(anyOf(['记一笔', '记', 'a.b'])).toBe('(?:记一笔|记|a\\.b)');
    expect(new RegExp(`^${anyOf(['1+1', '%'])}$`).test('1+1')).toBe(true);
    expect(new RegExp(anyOf(['记一笔', '记'])).exec('帮我记一笔')?.[0]).toBe('记一笔');
    expect(() => anyOf([])).toThrow();
  });
});
