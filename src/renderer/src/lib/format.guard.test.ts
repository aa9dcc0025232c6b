// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { remainderText } from './budgets/budgets';
import { amountInputText, formatAmount, formatFenAmount, formatMoney } from './format';
import { balanceText, rowFen, signedFen, yuanText } from './ledger/money';
import { ruleAmount } from '../pages/recurring/rule-form';

// One money format and one date format on every screen (issue 38): every amount goes through
// format.ts / @shared/display (¥1,234.56, −¥500.00), every day through formatDate & co. This
// reads the renderer's sources and fails, naming file and line, on any other way of writing one.

interface Rule {
  name: string;
  pattern: RegExp;
  use: string;
}

const RULES: Rule[] = [
  { name: 'toFixed', pattern: /\.toFixed\(/, use: 'formatMoney / formatFenAmount / formatAmount' },
  { name: 'toLocale*String', pattern: /\.toLocale(?:Date|Time)?String\(/, use: 'formatMoney, formatDate, formatTime' },
  {
    name: 'Intl formatter',
    pattern: /\bIntl\.(?:NumberFormat|DateTimeFormat)\b/,
    use: 'formatMoney, formatDate (@shared/display holds the one Intl.NumberFormat)',
  },
  // `¥${x}` in a template, ¥{x} in Svelte markup, '¥' + x or x + '¥' in code.
  { name: 'hand-built ¥', pattern: /¥\$?\{|['"`]¥['"`]\s*\+|\+\s*['"`]¥/, use: 'formatMoney / formatFenAmount' },
  // A hyphen for a minus (-¥12, `${x < 0 ? '-' : ''}${yuanText(…)}`): formatMoney writes U+2212.
  {
    name: 'hand-built minus',
    pattern: /-¥|\?\s*(['"`])-\1\s*:\s*(['"`])\2.*(?:yuanText|balanceText|formatMoney|formatFenAmount|¥)/,
    use: 'formatMoney (a negative amount gets −)',
  },
  {
    name: 'speech-register money',
    pattern: /\bformat(?:Yuan|Fen)\b/,
    use: 'formatMoney (formatYuan/formatFen of @shared/money are for speech: "60元")',
  },
  { name: 'hand-cut date', pattern: /\.(?:slice|substring|substr)\(\s*[58]\b/, use: 'formatDate / formatDay / formatMonth' },
  { name: 'hand-built month', pattern: /getMonth\(\)\s*\+\s*1/, use: 'formatDate / formatMonth (ymdOf / localToday for a YYYY-MM-DD key)' },
  { name: 'hand-built month-day', pattern: /\bmonthDayText\b/, use: 'formatDate' },
];

/** Rules for a Svelte file's markup only: there a value is shown, in its script it may be a key or an input. */
const MARKUP_RULES: Rule[] = [
  { name: 'bare yuan', pattern: /[Ff]en\s*\/\s*100\b|\bfenToYuan\(/, use: 'formatMoney / formatFenAmount' },
  // {row.date} or ${offer.date} shown as stored (2026-11-28); value={row.date} feeds an input and is fine.
  {
    name: 'raw date',
    pattern: /(?:\$|(?<![=:]\s*))\{[\w.?!]*\b(?:date|[a-z]+Date|time|month)\}/,
    use: 'formatDate / formatDay / formatMonth / formatTime',
  },
];

/** What is genuinely not a shown amount or date, by file (null: any) and line; each says why. */
const ALLOWED: { file: string | null; line: RegExp; reason: string }[] = [
  { file: null, line: /getFullYear\(\)\}-\$\{.*getMonth\(\) \+ 1/, reason: 'builds a YYYY-MM(-DD) key (ymdOf, localToday), not text' },
  { file: 'lib/ledger/breakdown.ts', line: /share \* 100\)\.toFixed\(1\)/, reason: 'a share of the total (31.7%), not an amount' },
  { file: 'lib/models/format.ts', line: /MB\)\.toFixed\(1\)|percent\.toFixed\(1\)/, reason: 'download sizes, speeds and percent, not money' },
  { file: 'pages/settings/BackupSection.svelte', line: /bytes \/ 1024(?: \/ 1024)?\)\.toFixed\(/, reason: 'a backup file size in KB / MB' },
  { file: 'pages/settings/SettingsPage.svelte', line: /(?:silenceSeconds|ttsRate)\.toFixed\(1\)/, reason: 'seconds of silence and a speech rate' },
];

export interface Finding {
  file: string;
  line: number;
  rule: string;
  text: string;
}

/** A line that is only a comment says how things look; it shows nothing. */
const COMMENT = /^\s*(?:\/\/|\/\*|\*|<!--)/;

/** The rule breaches in one source text; `file` is its path under src/renderer/src. */
export function findingsIn(file: string, source: string): Finding[] {
  const found: Finding[] = [];
  const svelte = file.endsWith('.svelte');
  let block: 'markup' | 'script' | 'style' = svelte ? 'markup' : 'script';
  source.split('\n').forEach((text, i) => {
    if (svelte && /^\s*<script\b/.test(text)) block = 'script';
    else if (svelte && /^\s*<style\b/.test(text)) block = 'style';
    const rules = block === 'markup' ? [...RULES, ...MARKUP_RULES] : block === 'script' ? RULES : [];
    if (!COMMENT.test(text)) {
      for (const rule of rules) {
        if (!rule.pattern.test(text)) continue;
        if (ALLOWED.some((a) => (a.file === null || a.file === file) && a.line.test(text))) continue;
        found.push({ file, line: i + 1, rule: rule.name, text: text.trim() });
      }
    }
    if (svelte && /<\/(?:script|style)>/.test(text)) block = 'markup';
  });
  return found;
}

/** Every source under src/renderer/src, tests left out, by its path there (lib/format.ts). */
const SOURCES: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['../**/*.ts', '../**/*.svelte', '!../**/*.test.ts'], { query: '?raw', import: 'default', eager: true }),
    // Vite names this folder's files ./x and the others ../pages/x: both as paths under src/renderer/src.
  ).map(([path, text]) => [path.startsWith('./') ? `lib/${path.slice(2)}` : path.replace(/^\.\.\//, ''), text]),
);
const FILES = Object.keys(SOURCES).sort();

describe('the guard itself', () => {
  it('reads the renderer’s pages and libraries', () => {
    expect(FILES).toContain('lib/format.ts');
    expect(FILES).toContain('pages/stats/StatsPage.svelte');
    expect(FILES).toContain('App.svelte');
    expect(FILES.some((f) => f.endsWith('.test.ts'))).toBe(false);
    expect(FILES.length).toBeGreaterThan(80);
  });

  it.each([
    ['label: `= ${(fen / 100).toFixed(2)}`', 'toFixed'],
    ['return n.toLocaleString("zh-CN");', 'toLocale*String'],
    ['const f = new Intl.NumberFormat("zh-CN");', 'Intl formatter'],
    ['new Intl.DateTimeFormat("zh-CN")', 'Intl formatter'],
    ['return `¥${formatFen(fen)}`;', 'hand-built ¥'],
    ['<option>{c.date} ¥{c.amountFen / 100}</option>', 'hand-built ¥'],
    ["return '¥' + yuan;", 'hand-built ¥'],
    ["{balanceFen < 0 ? '-' : ''}{yuanText(Math.abs(balanceFen))}", 'hand-built minus'],
    ['<span>-¥{x}</span>', 'hand-built minus'],
    ["import { formatFen } from '@shared/money';", 'speech-register money'],
    ['<span class="when">{row.date.slice(5)}</span>', 'hand-cut date'],
    ['`${Number(p.key.slice(8, 10))}日`', 'hand-cut date'],
    ['const day = `${d.getMonth() + 1}月${d.getDate()}日`;', 'hand-built month'],
    ['`退款 · ${monthDayText(target.date)}`', 'hand-built month-day'],
    ['<td>{r.amountFen / 100}</td>', 'bare yuan'],
    ['<td>{r.date} {r.time}</td>', 'raw date'],
    ['<li aria-label={`${offer.date} ${title}`}>', 'raw date'],
  ])('catches %s', (line, rule) => {
    expect(findingsIn('pages/some/Page.svelte', line).map((f) => f.rule)).toContain(rule);
  });

  it('reads a Svelte script as code: a key or an input value there is not shown', () => {
    const page =
      '<script lang="ts">\n  const amountYuan = fen / 100;\n  const key = `${row.date}`;\n</script>\n\n<input type="date" value={row.date} />\n<span>{fen / 100}</span>';
    expect(findingsIn('pages/x.svelte', page)).toEqual([{ file: 'pages/x.svelte', line: 7, rule: 'bare yuan', text: '<span>{fen / 100}</span>' }]);
  });

  it('passes the formatters’ own forms, comments, and only the allowed lines of the allowed files', () => {
    expect(findingsIn('pages/x.svelte', '<dd>{formatMoney(balanceFen)}</dd>\n<span>{formatDay(row.date)}</span>')).toEqual([]);
    expect(findingsIn('pages/x.ts', '  /** ¥5000 was written `¥${x}` before */')).toEqual([]);
    expect(findingsIn('lib/ledger/breakdown.ts', 'return `${(share * 100).toFixed(1)}%`;')).toEqual([]);
    expect(findingsIn('lib/ledger/breakdown.ts', 'return `${(fen / 100).toFixed(2)}`;')).toHaveLength(1);
    expect(findingsIn('pages/x.ts', 'return `${(share * 100).toFixed(1)}%`;')).toHaveLength(1);
    // A hyphen for an input's value or a number that is not money is not a shown amount.
    expect(findingsIn('pages/x.ts', "return `${value < 0 ? '-' : ''}${Math.trunc(scaled / 10)}`;")).toEqual([]);
  });
});

describe('every renderer source writes amounts and dates through format.ts', () => {
  it.each(FILES)('%s', (file) => {
    const findings = findingsIn(file, SOURCES[file]!);
    const report = findings.map(
      (f) => `${f.file}:${f.line} ${f.rule} (use ${[...RULES, ...MARKUP_RULES].find((r) => r.name === f.rule)!.use}): ${f.text}`,
    );
    expect(report, report.join('\n')).toEqual([]);
  });
});

describe('the formatters write one money form', () => {
  const MONEY = /^[−+]?¥\d{1,3}(,\d{3})*\.\d{2}$/;

  /** Edge amounts and a fixed pseudo-random spread up to the ledger's ¥1亿 bound, both signs. */
  const AMOUNTS: number[] = (() => {
    const edges = [0, 1, 5, 99, 100, 101, 99_999, 100_000, 123_456_789, 10_000_000_000, 9_999_999_999];
    let seed = 38;
    const spread = Array.from({ length: 400 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % 10_000_000_001;
    });
    return [...edges, ...spread].flatMap((fen) => [fen, -fen]);
  })();

  it.each([
    ['formatMoney', (fen: number) => formatMoney(fen)],
    ['formatFenAmount always signed', (fen: number) => formatFenAmount(fen, { sign: 'always' })],
    ['formatAmount (yuan)', (fen: number) => formatAmount(fen / 100)],
    ['yuanText', yuanText],
    ['balanceText', balanceText],
    ['signedFen', (fen: number) => signedFen(fen < 0 ? 'EXPENSE' : 'INCOME', Math.abs(fen))],
    ['rowFen', (fen: number) => rowFen({ type: 'TRANSFER', amountFen: Math.abs(fen), flow: fen < 0 ? 'lend' : 'borrow' })],
    ['ruleAmount', ruleAmount],
    [
      'remainderText',
      (fen: number) => remainderText({ categoryId: 1, category: '餐饮', budgetFen: fen, spentFen: 0, percent: 0, level: 'ok' }).slice(3),
    ],
  ])('%s', (_name, format) => {
    const bad = AMOUNTS.map((fen) => [fen, format(fen)] as const).filter(([, text]) => !MONEY.test(text));
    expect(bad).toEqual([]);
  });

  it('writes a minus as U+2212 and keeps the fen', () => {
    expect(formatMoney(-123_456_789)).toBe('\u2212¥1,234,567.89');
    expect(formatFenAmount(1, { sign: 'always' })).toBe('+¥0.01');
    expect(formatAmount(null)).toBe('金额未识别');
  });

  it('leaves an amount field’s starting text plain, so its parser reads it back', () => {
    expect([amountInputText(3500), amountInputText(150_050), amountInputText(5), amountInputText(-120_050)]).toEqual([
      '35',
      '1500.50',
      '0.05',
      '-1200.50',
    ]);
  });
});
