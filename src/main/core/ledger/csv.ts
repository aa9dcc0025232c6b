// Reading CSV with csv-parse, keeping the physical line each record starts on, so an import
// error can name the line the user sees in a text editor.
import { CsvError, parse } from 'csv-parse/sync';
import { CodedError } from '@shared/errors';
import { startsLikeFormula } from '@shared/ipc/fields';
import type { Pacer } from './pace';

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
}

/** The file ends inside a quoted field; `line` is where that record starts. */
export class CsvSyntaxError extends CodedError<'unclosed_quote'> {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super('unclosed_quote', message);
  }
}

/** Parses CSV text (no BOM) into records; blank lines are dropped. */
export function parseCsv(text: string): CsvRecord[] {
  // csv-parse builds (and deep-copies) an error object for every record whose width differs
  // from the FIRST record's, even where relax_column_count lets the record through. A bill's
  // first lines are a one-column preamble, so every row of its table would pay for one: 0.7 s
  // of a 10 000-row bill. Its table is parsed on its own, so its header sets the width.
  const at = tableStart(text);
  if (at <= 0) return parseFrom(text, 1);
  const head = text.slice(0, at);
  return [...parseFrom(head, 1), ...parseFrom(text.slice(at), 1 + lineFeeds(head))];
}

/**
 * The same, parsed a slice of lines at a time with `pace` between slices: csv-parse of a
 * 10 000-line bill at once holds the main thread for about 100 ms. A slice ends at a line
 * break outside quotes; a file whose quotes that count misreads (a stray quote in a plain
 * cell) fails a slice as unclosed, and the rest is then parsed at once, as parseCsv does.
 */
export async function parseCsvPaced(text: string, pace: Pacer): Promise<CsvRecord[]> {
  const at = Math.max(0, tableStart(text));
  const records = at > 0 ? parseFrom(text.slice(0, at), 1) : [];
  let line = 1 + lineFeeds(text.slice(0, at));
  let offset = at;
  while (offset < text.length) {
    await pace();
    const end = sliceEnd(text, offset);
    const slice = text.slice(offset, end);
    let parsed: CsvRecord[];
    try {
      parsed = parseFrom(slice, line);
    } catch (err) {
      if (!(err instanceof CsvSyntaxError) || end >= text.length) throw err;
      records.push(...parseFrom(text.slice(offset), line));
      return records;
    }
    for (const r of parsed) records.push(r);
    line += lineFeeds(slice);
    offset = end;
  }
  return records;
}

const SLICE_LINES = 250;

/** Where a slice from `start` ends: after its SLICE_LINES-th line break outside quotes, or the end of the text. */
function sliceEnd(text: string, start: number): number {
  return walk(text, start, SLICE_LINES).end;
}

/**
 * Reads `text` from `start` through `lines` line breaks outside quotes (or to its end): where
 * it stopped, the cells of the last line read, and whether a quoted cell was still open. A
 * quote opens a quoted cell only at the start of a cell, as csv-parse reads it with
 * relax_quotes; elsewhere it is text.
 */
function walk(text: string, start: number, lines: number): { end: number; cells: number; open: boolean } {
  let quoted = false;
  let cellStart = true;
  let cells = 1;
  let seen = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (quoted) {
      if (ch === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) i++;
        else quoted = false;
      }
      continue;
    }
    if (ch === QUOTE && cellStart) quoted = true;
    cellStart = ch === COMMA || ch === LF || ch === CR;
    if (ch === COMMA) cells++;
    if (ch === LF) {
      if (++seen === lines) return { end: i + 1, cells, open: false };
      cells = 1;
    }
  }
  return { end: text.length, cells, open: quoted };
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

function parseFrom(text: string, firstLine: number): CsvRecord[] {
  const records: CsvRecord[] = [];
  // csv-parse's own line count (`info.lines`) counts a CRLF inside a quoted field twice, and
  // our export writes CRLFs into notes; counting here keeps the numbers an editor shows. Blank
  // lines come through as records too, so every line is seen: a record spans one line plus
  // the line feeds inside its quoted fields.
  let line = firstLine;
  try {
    parse(text, {
      // Bills mix CRLF and LF, and their preamble lines have fewer columns than the table.
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      // A stray quote inside a field is text, as spreadsheet programs read it.
      relax_quotes: true,
      on_record: (fields: string[]) => {
        if (!(fields.length === 1 && fields[0] === '')) records.push({ line, fields });
        line += 1 + fields.reduce((n, field) => n + lineFeeds(field), 0);
        return null;
      },
    });
  } catch (err) {
    if (err instanceof CsvError && err.code === 'CSV_QUOTE_NOT_CLOSED') throw new CsvSyntaxError(line, `第${line}行：引号没有闭合`);
    throw err;
  }
  return records;
}

/** How far into a file its preamble goes before the table: lines of one cell at most. */
const PREAMBLE_LINES = 100;

/**
 * Where the first line of a table starts that follows narrower lines: the first of two
 * consecutive lines with the same number of cells (three or more), when some line before it
 * has fewer. 0 when the file starts with its table, or a quote spans lines in the preamble
 * (then the offsets of lines cannot be told without parsing).
 */
function tableStart(text: string): number {
  let offset = 0;
  let previous: { at: number; cells: number } | undefined;
  let narrower = false;
  for (let n = 0; n < PREAMBLE_LINES && offset < text.length; n++) {
    const end = text.indexOf('\n', offset);
    if (end < 0) return 0;
    const cells = cellCount(text.slice(offset, end));
    if (cells < 0) return 0;
    if (previous && previous.cells >= 3 && previous.cells === cells) return narrower ? previous.at : 0;
    if (previous && previous.cells < cells) narrower = true;
    previous = { at: offset, cells };
    offset = end + 1;
  }
  return 0;
}

/** Cells of one physical line, or -1 when a quoted cell goes on past it. */
function cellCount(line: string): number {
  const { cells, open } = walk(line, 0, Infinity);
  return open ? -1 : cells;
}

function lineFeeds(field: string): number {
  let n = 0;
  for (let i = field.indexOf('\n'); i >= 0; i = field.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * A text cell as the export writes it: one that a spreadsheet would run as a formula
 * (startsLikeFormula: = + - @, tab, CR, full-width forms, after leading spaces) gets a `'`
 * in front, OWASP's rule for CSV injection; the cell then opens as plain text. A cell that
 * already starts with a `'` which unescapeCell would take off gets one more, so reading the
 * export back always gives the original text.
 */
export function escapeCell(text: string): string {
  return startsLikeFormula(text) || unescapeCell(text) !== text ? `'${text}` : text;
}

/** The original text of a cell escapeCell wrote; any other cell comes back unchanged. */
export function unescapeCell(cell: string): string {
  if (!cell.startsWith("'")) return cell;
  const rest = cell.slice(1);
  return startsLikeFormula(rest) || rest.startsWith("'") ? rest : cell;
}
