// Reading CSV with csv-parse, keeping the physical line each record starts on, so an import
// error can name the line the user sees in a text editor.
import { CsvError, parse } from 'csv-parse/sync';
import { CodedError } from '@shared/errors';
import { startsLikeFormula } from '@shared/ipc/fields';

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
  const records: CsvRecord[] = [];
  // csv-parse's own line count (`info.lines`) counts a CRLF inside a quoted field twice, and
  // our export writes CRLFs into notes; counting here keeps the numbers an editor shows. Blank
  // lines come through as records too, so every line is seen: a record spans one line plus
  // the line feeds inside its quoted fields.
  let line = 1;
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
