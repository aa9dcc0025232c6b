// The gateway answers 422 llm_parse_failed when both models fail for any reason (as the
// original service does); the desktop must still fall back to its local rules.
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewayHarness, type GatewayHarness } from '../../../../test/support/gateway/gateway-harness';
import { toZonedNow } from '@shared/time';
import type { UnderstandingContext } from '../voice/ports';
import { createGatewayLlmClient } from './gateway-client';
import { createUnderstanding } from './index';
import { LlmClientError } from './llm-client';

const context: UnderstandingContext = { now: toZonedNow('2026-02-17T12:00:00+08:00') };

let h: GatewayHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('gateway client and 422', () => {
  it('reports 422 with the upstream cause, and understanding answers from the local rules', async () => {
    h = await startGatewayHarness({ script: () => ({ status: 500 }), retry: { retries: 2, baseDelayMs: 1 } });
    const client = createGatewayLlmClient({ gatewayUrl: h.url });
    const err = await client.parseTransaction({ text: '午饭35' }, { signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmClientError);
    expect(err).toMatchObject({ code: 'http', status: 422, message: expect.stringMatching(/llm_parse_failed: both models failed.*500/) });
    expect(h.chat.calls.map((c) => c.model)).toEqual(['qwen-turbo', 'qwen-turbo', 'qwen-turbo', 'qwen-plus', 'qwen-plus', 'qwen-plus']);

    const outcome = await createUnderstanding({ mode: 'gateway', gatewayUrl: h.url }).parse('午饭35，打车20', context);
    expect(outcome).toMatchObject({ source: 'local', failure: { kind: 'http', status: 422 } });
    expect(outcome.results.map((r) => r.amount)).toEqual([35, 20]);
  });
});
