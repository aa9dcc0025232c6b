import WebSocket from 'ws';
import { GATEWAY_PATHS, HealthResponseSchema, type HealthResponse } from '@shared/gateway';
import type { ConnectionTestResult, SecretName, Settings } from '@shared/ipc/app-settings';
import { systemClock, type Clock } from '@shared/clock';

export interface ConnectionTestDeps {
  fetch?: typeof fetch;
  clock?: Clock;
  timeoutMs?: number;
}

type Probe = { ok: true; status: number; body: string; latencyMs: number } | { ok: false; message: string };

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Answers "does the configured service accept us?" in one sentence a user can act on.
 * Nothing is spent: the gateway key is checked with an empty request the gateway rejects
 * as invalid only after it accepted the key, and the provider key with its model list.
 */
export async function testConnection(
  settings: Settings,
  secret: (name: SecretName) => string | null,
  deps: ConnectionTestDeps = {},
): Promise<ConnectionTestResult> {
  const understanding = await testUnderstanding(settings, secret, deps);
  if (settings.asr.provider !== 'funasr') return understanding;
  const asr = await testFunAsr(settings.asr.funasrUrl, deps);
  return {
    ok: understanding.ok && asr.ok,
    message: `${understanding.message}${asr.message}`,
    ...(understanding.latencyMs !== undefined ? { latencyMs: understanding.latencyMs } : {}),
  };
}

async function testUnderstanding(
  settings: Settings,
  secret: (name: SecretName) => string | null,
  deps: ConnectionTestDeps,
): Promise<ConnectionTestResult> {
  const { mode } = settings.connection;
  if (mode === 'offline') {
    return { ok: true, message: '离线模式不需要联网：多笔识别和智能纠正不可用，其余功能照常。' };
  }
  if (mode === 'gateway') return testGateway(settings.connection.gatewayUrl, secret('gatewayApiKey'), deps);
  const key = secret('dashscopeApiKey');
  if (!key) return { ok: false, message: '请先填写 DashScope API Key。' };
  const base = settings.connection.llmBaseUrl;
  if (!base) return { ok: false, message: '请先填写模型服务地址。' };
  const probe = await request(`${trimSlash(base)}/models`, { method: 'GET', headers: { authorization: `Bearer ${key}` } }, deps);
  if (!probe.ok) return { ok: false, message: probe.message.replace('{what}', '模型服务') };
  if (probe.status >= 200 && probe.status < 300)
    return { ok: true, message: `模型服务连接正常（${probe.latencyMs} ms）。`, latencyMs: probe.latencyMs };
  return { ok: false, message: statusMessage('模型服务', probe.status) };
}

async function testGateway(url: string, key: string | null, deps: ConnectionTestDeps): Promise<ConnectionTestResult> {
  if (!url) return { ok: false, message: '请先填写网关地址，例如 http://127.0.0.1:8080。' };
  const base = trimSlash(url);
  const health = await request(`${base}${GATEWAY_PATHS.health}`, { method: 'GET' }, deps);
  if (!health.ok) return { ok: false, message: health.message.replace('{what}', '网关') };
  const info = health.status === 200 ? readHealth(health.body) : null;
  if (!info) {
    return { ok: false, message: '这个地址能访问，但不是随口记网关，请检查地址（通常以端口号结尾，例如 :8080）。' };
  }
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers['X-API-Key'] = key;
  const auth = await request(`${base}${GATEWAY_PATHS.parse}`, { method: 'POST', headers, body: '{}' }, deps);
  if (!auth.ok) return { ok: false, message: auth.message.replace('{what}', '网关') };
  if (auth.status === 401) return { ok: false, message: key ? '网关拒绝了 API Key，请检查是否填写正确。' : '网关需要 API Key，请填写后再试。' };
  if (auth.status === 429) return { ok: false, message: statusMessage('网关', 429) };
  const notes: string[] = [];
  if (!info.llm) notes.push('网关没有配置大模型，识别将使用本地规则');
  if (!info.asr) notes.push('网关没有配置语音识别，可以用键盘输入');
  const latencyMs = health.latencyMs;
  return {
    ok: info.llm,
    message: `网关连接正常（${latencyMs} ms）${notes.length ? `，但${notes.join('；')}` : ''}。`,
    latencyMs,
  };
}

/** The gateway's health answer, or null when the body is something else (another server). */
function readHealth(body: string): HealthResponse | null {
  try {
    const parsed = HealthResponseSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function statusMessage(what: string, status: number): string {
  if (status === 401 || status === 403) return `${what}拒绝了密钥（HTTP ${status}），请检查 API Key 是否正确。`;
  if (status === 404) return `${what}地址不对（HTTP 404），请检查地址是否完整。`;
  if (status === 429) return `${what}请求过于频繁（HTTP 429），请稍后再试。`;
  return `${what}可以访问，但返回了错误（HTTP ${status}），请稍后再试或查看服务日志。`;
}

async function request(url: string, init: RequestInit, deps: ConnectionTestDeps): Promise<Probe> {
  const clock = deps.clock ?? systemClock;
  const timeoutMs = deps.timeoutMs ?? 5000;
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(), timeoutMs);
  const started = clock.now();
  try {
    const response = await (deps.fetch ?? fetch)(url, { ...init, signal: controller.signal });
    const body = await response.text();
    return { ok: true, status: response.status, body, latencyMs: clock.now() - started };
  } catch {
    if (controller.signal.aborted) return { ok: false, message: `{what}在 ${Math.round(timeoutMs / 1000)} 秒内没有响应，请检查网络或地址。` };
    return { ok: false, message: '无法连接{what}，请检查地址和网络后重试。' };
  } finally {
    clock.clearTimeout(timer);
  }
}

/** Opens and closes a WebSocket to the FunASR server: reachability is all it can tell. */
async function testFunAsr(url: string, deps: ConnectionTestDeps): Promise<ConnectionTestResult> {
  if (!url) return { ok: false, message: '请先填写 FunASR 地址，例如 ws://127.0.0.1:10095。' };
  const clock = deps.clock ?? systemClock;
  const timeoutMs = deps.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    let settled = false;
    const socket = new WebSocket(url);
    const finish = (result: ConnectionTestResult) => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.terminate();
      resolve(result);
    };
    const timer = clock.setTimeout(
      () => finish({ ok: false, message: `FunASR 在 ${Math.round(timeoutMs / 1000)} 秒内没有响应，请检查地址。` }),
      timeoutMs,
    );
    socket.on('open', () => finish({ ok: true, message: 'FunASR 语音识别可以连接。' }));
    socket.on('error', () => finish({ ok: false, message: '无法连接 FunASR 语音识别，请检查地址和服务是否启动。' }));
  });
}
