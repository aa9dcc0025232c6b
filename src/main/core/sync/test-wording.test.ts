import { describe, expect, it } from 'vitest';
import { testWording } from './test-wording';

describe('testWording', () => {
  it('drops the promise of a retry that a test never makes, keeping what to do', () => {
    expect(testWording('连不上同步服务器（ECONNREFUSED）：请检查网络和地址，恢复后会自动重试。')).toBe(
      '连不上同步服务器（ECONNREFUSED）：请检查网络和地址。',
    );
    expect(testWording('同步服务器暂时繁忙（503），稍后会自动重试。坚果云免费账户每 30 分钟最多 600 次请求。')).toBe(
      '同步服务器暂时繁忙（503）。坚果云免费账户每 30 分钟最多 600 次请求。',
    );
    expect(testWording('同步失败：socket hang up。稍后会自动重试。')).toBe('同步失败：socket hang up。');
  });

  it('leaves a message without that promise as it is', () => {
    const refused = '同步服务器拒绝了登录（401）：请检查用户名和应用密码（坚果云、Nextcloud 需使用“应用密码”，不是登录密码）。';
    expect(testWording(refused)).toBe(refused);
    expect(testWording('同步密码不对：请输入这个同步位置第一次设置时用的同步密码。')).toBe(
      '同步密码不对：请输入这个同步位置第一次设置时用的同步密码。',
    );
  });
});
