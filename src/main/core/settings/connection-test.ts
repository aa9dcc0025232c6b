import type { ConnectionTestResult, SecretName, Settings } from '../../../shared/ipc/app-settings';
import { systemClock, type Clock } from '../clock';

export interface ConnectionTestDeps {
  fetch?: typeof fetch;
  clock?: Clock;
  timeoutMs?: number;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Answers "does the configured service accept us?" in one sentence a user can act on. */
export async function testConnection(
  settings: Settings,
  secret: (name: SecretName) => string | null,
  deps: ConnectionTestDeps = {},
): Promise<ConnectionTestResult> {
  const { mode } = settings.connection;
  if (mode === 'offline') {
    return { ok: true, message: '离线模式不需要联网：多笔识别和智能纠正不可用，其余功能照常。' };
  }
  if (mode === 'gateway') {
    const base = settings.connection.gatewayUrl;
    if (!base) return { ok: false, message: '请先填写网关地址，例如 http://127.0.0.1:8080。' };
    const key = secret('gatewayApiKey');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers['X-API-Key'] = key;
    return probe(`${trimSlash(base)}/api/v1/asr/token`, { method: 'POST', headers, body: '{}' }, '网关', deps);
  }
  const key = secret('dashscopeApiKey');
  if (!key) return { ok: false, message: '请先填写 DashScope API Key。' };
  const base = settings.connection.llmBaseUrl;
  if (!base) return { ok: false, message: '请先填写模型服务地址。' };
  return probe(`${trimSlash(base)}/models`, { method: 'GET', headers: { authorization: `Bearer ${key}` } }, '模型服务', deps);
}

async function probe(url: string, init: RequestInit, what: string, deps: ConnectionTestDeps): Promise<ConnectionTestResult> {
  const clock = deps.clock ?? systemClock;
  const doFetch = deps.fetch ?? fetch;
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(), deps.timeoutMs ?? 5000);
  const started = clock.now();
  try {
    const response = await doFetch(url, { ...init, signal: controller.signal });
    await response.body?.cancel().catch(() => {});
    const latencyMs = clock.now() - started;
    if (response.ok) return { ok: true, message: `${what}连接正常（${latencyMs} ms）。`, latencyMs };
    if (response.status === 401 || response.status === 403) {
      return { ok: false, message: `${what}拒绝了密钥（HTTP ${response.status}），请检查 API Key 是否正确。` };
    }
    if (response.status === 404) return { ok: false, message: `${what}地址不对（HTTP 404），请检查地址是否完整。` };
    if (response.status === 429) return { ok: false, message: `${what}请求过于频繁（HTTP 429），请稍后再试。` };
    return { ok: false, message: `${what}可以访问，但返回了错误（HTTP ${response.status}），请稍后再试或查看服务日志。` };
  } catch {
    if (controller.signal.aborted) return { ok: false, message: `${what}在 ${Math.round((deps.timeoutMs ?? 5000) / 1000)} 秒内没有响应，请检查网络或地址。` };
    return { ok: false, message: `无法连接${what}，请检查地址和网络后重试。` };
  } finally {
    clock.clearTimeout(timer);
  }
}
