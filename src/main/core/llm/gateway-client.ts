// LlmClient over HTTP to an AI gateway (ours, or the original service: same wire).
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { CorrectTransactionResponseSchema, ErrorBodySchema, GATEWAY_PATHS, ParseTransactionResponseSchema } from '@shared/gateway';
import { LlmClientError, type LlmClient } from './llm-client';

export interface GatewayClientOptions {
  gatewayUrl: string;
  apiKey?: string;
  fetch?: typeof fetch;
}

export function createGatewayLlmClient(options: GatewayClientOptions): LlmClient {
  const base = options.gatewayUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;

  async function post<S extends z.ZodType>(path: string, body: unknown, schema: S, signal: AbortSignal): Promise<z.infer<S>> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': randomUUID() };
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    let status: number;
    let text: string;
    try {
      const res = await doFetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body), signal });
      status = res.status;
      text = await res.text();
    } catch (err) {
      if (signal.aborted) throw new LlmClientError('aborted', 'request cancelled');
      throw new LlmClientError('network', `cannot reach the gateway: ${(err as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (status < 200 || status >= 300) {
      const error = ErrorBodySchema.safeParse(json);
      const detail = error.success ? `${error.data.error}: ${error.data.message}` : text.slice(0, 200);
      throw new LlmClientError('http', `gateway answered ${status} (${detail})`, status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new LlmClientError('malformed', `gateway answer does not match ${path}`);
    return parsed.data;
  }

  return {
    parseTransaction: (request, { signal }) => post(GATEWAY_PATHS.parse, request, ParseTransactionResponseSchema, signal),
    correctTransaction: (request, { signal }) => post(GATEWAY_PATHS.correct, request, CorrectTransactionResponseSchema, signal),
  };
}
