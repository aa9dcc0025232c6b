// The layering rules live in eslint.config.js; this runs the real linter on would-be files at
// the places the rules guard, so a rule that stops matching (a renamed folder, a flat-config
// object that replaces another's zones) fails here rather than silently allowing the import.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function zoneErrors(filePath: string, importPath: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${importPath}';\nexport const y = x;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('layering (eslint import zones)', () => {
  it.each([
    ['the app importing the gateway', 'src/main/core/llm/probe.ts', '../../../gateway/config', /never the gateway itself/],
    ['the gateway importing the app', 'src/gateway/probe.ts', '../main/core/nlp/index', /never the app itself/],
    ['the LLM core importing the app', 'src/llm/probe.ts', '../main/core/nlp/index', /depends only on src\/shared/],
    ['the LLM core importing the gateway', 'src/llm/probe.ts', '../gateway/config', /depends only on src\/shared/],
    ['the renderer importing main', 'src/renderer/src/probe.ts', '../../main/core/nlp/index', /window\.suikouji/],
    ['production code importing test helpers', 'src/gateway/probe.ts', '../../test/support/redis-server', /test helpers/],
  ])('refuses %s', async (_, file, from, message) => {
    const errors = await zoneErrors(file, from);
    expect(errors.some((e) => message.test(e))).toBe(true);
  });

  it.each([
    ['the app using the LLM core', 'src/main/core/llm/probe.ts', '../../../llm/transaction-llm'],
    ['the gateway using the LLM core', 'src/gateway/probe.ts', '../llm/transaction-llm'],
    ['the LLM core using shared types', 'src/llm/probe.ts', '../shared/gateway'],
  ])('allows %s', async (_, file, from) => {
    expect(await zoneErrors(file, from)).toEqual([]);
  });
});
