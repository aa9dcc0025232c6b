import { describe, expect, it } from 'vitest';
import { httpError } from './webdav-remote';

// What a failed request says to the user: the server's status, or the network's failure in
// words a household reads, never a bare socket code.
describe('httpError', () => {
  const network = (code: string) => httpError(Object.assign(new TypeError('fetch failed'), { cause: { code } }), 'https://dav.example/skj');

  it.each([
    ['ECONNREFUSED', '服务器拒绝连接'],
    ['ENOTFOUND', '找不到这个地址'],
    ['ECONNRESET', '连接被中断'],
    ['ETIMEDOUT', '服务器回答超时'],
    ['EHOSTUNREACH', '网络不通'],
    ['SELF_SIGNED_CERT_IN_CHAIN', '服务器的证书不受信任'],
  ])('%s reads as %s', (code, words) => {
    const error = network(code);
    expect(error.code).toBe('unreachable');
    expect(error.message).toBe(`连不上同步服务器（${words}）：请检查网络和地址，恢复后会自动重试。`);
    expect(error.message).not.toContain(code);
  });

  it('keeps an unknown code, for support', () => {
    expect(network('EWEIRD').message).toContain('（EWEIRD）');
  });

  it('names a refused login by its status', () => {
    const error = httpError(Object.assign(new Error('Unauthorized'), { status: 401 }), 'https://dav.example/skj');
    expect(error.code).toBe('login_refused');
    expect(error.message).toContain('应用密码');
  });
});
