import { ModelReplyError } from './errors';

const FENCE = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/g;

/**
 * Finds the JSON value in a model reply. Providers without JSON mode wrap it in code fences
 * or surround it with prose, so we try: the whole text, every fenced block, then every
 * balanced {...} / [...] span in order of appearance. Throws ModelReplyError when none parses.
 */
export function extractJson(reply: string): unknown {
  const candidates: string[] = [reply.trim()];
  for (const m of reply.matchAll(FENCE)) candidates.push(m[1]!.trim());
  for (const candidate of candidates) {
    const parsed = tryParse(candidate);
    if (parsed.ok) return parsed.value;
  }
  for (const span of balancedSpans(reply)) {
    const parsed = tryParse(span);
    if (parsed.ok) return parsed.value;
  }
  throw new ModelReplyError(`model reply contains no JSON value (${reply.length} chars)`);
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '' || !/^[[{]/.test(text)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Outermost bracket-balanced spans, skipping brackets inside JSON strings. */
function* balancedSpans(text: string): Generator<string> {
  for (let start = 0; start < text.length; start++) {
    const open = text[start];
    if (open !== '{' && open !== '[') continue;
    const end = matchingClose(text, start);
    if (end !== -1) yield text.slice(start, end + 1);
  }
}

function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
