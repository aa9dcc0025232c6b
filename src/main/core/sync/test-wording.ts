/**
 * A round's error as 测试连接 says it. A test saves nothing, so nothing retries by itself
 * afterwards: the round's 「恢复后会自动重试」 / 「稍后会自动重试」 would promise what does not
 * happen, and is left out.
 */
export function testWording(message: string): string {
  return message
    .replace(/[，,；;]?\s*(?:恢复后|稍后)会?自动重试[。.]?/u, '。')
    .replace(/。{2,}/gu, '。')
    .trim();
}
