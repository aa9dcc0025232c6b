// .xlsx bytes for tests of reading bills, in the two shapes they come in: as WeChat Pay exports
// them (inline cells, dates as date cells, amounts as numbers), and as Excel or WPS save them
// again (shared strings, a style table, dates as serial numbers under a date format, and, after
// a Power Query import, a first row Column1..ColumnN). A Date is a wall-clock time given in UTC:
// new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) is the cell that shows 2024-01-02 03:04:05.
import { strToU8, zipSync } from 'fflate';
import writeExcelFile from 'write-excel-file/node';
import type { Row } from 'write-excel-file/node';

export type FixtureCell = string | number | boolean | Date | null;

/** A workbook of one sheet as write-excel-file writes it (WeChat Pay's own export has this shape). */
export async function xlsxOf(rows: FixtureCell[][]): Promise<Uint8Array> {
  const data: Row[] = rows.map((row) => row.map((value) => (value instanceof Date ? { value, format: 'yyyy-mm-dd hh:mm:ss' } : value)));
  return new Uint8Array(await writeExcelFile(data).toBuffer());
}

export interface ExcelResavedOptions {
  /** A first row Column1..ColumnN, and empty cells as empty shared strings: a Power Query table's output. */
  powerQueryHeader?: boolean;
  /** Dates stored to the minute, as when a time was typed in without seconds. */
  dropSeconds?: boolean;
  /** A custom date format (e.g. 'yyyy/m/d h:mm') instead of the builtin numFmtId 22 ("m/d/yy h:mm"). */
  dateFormat?: string;
}

const DAY_MS = 86_400_000;
/** Excel's day 0 of its serial numbers (1900 date system; right for dates after 1900-02-28). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const CUSTOM_FORMAT_ID = 176;

/** The serial number Excel stores for a wall-clock time (given in UTC): days since 1899-12-30 with the time as a fraction. */
export function excelSerial(date: Date, dropSeconds = false): number {
  const ms = dropSeconds ? Math.floor(date.getTime() / 60_000) * 60_000 : date.getTime();
  return (ms - EXCEL_EPOCH_MS) / DAY_MS;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A, B, …, Z, AA, … for a 0-based column index. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/**
 * A workbook of one sheet shaped like Excel's own save: every string in sharedStrings.xml, a
 * Date as its serial number under a date style (s="1"), a number as a plain number cell, rows
 * with no content left out of the sheet XML (so the rows after them keep their numbers by their
 * `r`), and a <dimension>. Synchronous: the parts are written here and zipped with fflate.
 */
export function excelResavedXlsx(rows: FixtureCell[][], options: ExcelResavedOptions = {}): Uint8Array {
  const width = rows.reduce((most, row) => Math.max(most, row.length), 1);
  const all: FixtureCell[][] = options.powerQueryHeader ? [Array.from({ length: width }, (_, i) => `Column${i + 1}`), ...rows] : rows;
  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const shared = (text: string) => {
    let index = stringIndex.get(text);
    if (index === undefined) {
      index = strings.length;
      strings.push(text);
      stringIndex.set(text, index);
    }
    return index;
  };
  let stringCount = 0;
  const sheetRows: string[] = [];
  all.forEach((row, r) => {
    const ref = (c: number) => `${columnName(c)}${r + 1}`;
    const cells: string[] = [];
    for (let c = 0; c < (options.powerQueryHeader ? width : row.length); c++) {
      const value = row[c] ?? null;
      if (value === null) {
        // Power Query fills a table: its empty cells are empty strings, not missing cells.
        if (options.powerQueryHeader) {
          cells.push(`<c r="${ref(c)}" t="s"><v>${shared('')}</v></c>`);
          stringCount++;
        }
      } else if (typeof value === 'string') {
        cells.push(`<c r="${ref(c)}" t="s"><v>${shared(value)}</v></c>`);
        stringCount++;
      } else if (typeof value === 'number') {
        cells.push(`<c r="${ref(c)}"><v>${value}</v></c>`);
      } else if (typeof value === 'boolean') {
        cells.push(`<c r="${ref(c)}" t="b"><v>${value ? 1 : 0}</v></c>`);
      } else {
        cells.push(`<c r="${ref(c)}" s="1"><v>${excelSerial(value, options.dropSeconds)}</v></c>`);
      }
    }
    if (cells.length > 0) sheetRows.push(`<row r="${r + 1}" spans="1:${width}">${cells.join('')}</row>`);
  });
  const dimension = `A1:${columnName(width - 1)}${Math.max(1, all.length)}`;
  const sheet =
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><dimension ref="${dimension}"/>` +
    `<sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/>` +
    `<sheetData>${sheetRows.join('')}</sheetData></worksheet>`;
  const sharedStrings =
    `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${stringCount}" uniqueCount="${strings.length}">` +
    strings.map((s) => (s === '' ? '<si><t/></si>' : `<si><t xml:space="preserve">${escapeXml(s)}</t></si>`)).join('') +
    `</sst>`;
  const dateFormatId = options.dateFormat ? CUSTOM_FORMAT_ID : 22;
  const numFmts = options.dateFormat
    ? `<numFmts count="1"><numFmt numFmtId="${CUSTOM_FORMAT_ID}" formatCode="${escapeXml(options.dateFormat)}"/></numFmts>`
    : '';
  const styles =
    `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">${numFmts}` +
    `<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
    `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
    `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
    `<xf numFmtId="${dateFormatId}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>` +
    `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
  const workbook =
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><workbookPr/>` +
    `<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="28800" windowHeight="12300"/></bookViews>` +
    `<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  const workbookRels =
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
    `<Relationship Id="rId3" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
  const rootRels =
    `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
  const type = (part: string) => `application/vnd.openxmlformats-officedocument.spreadsheetml.${part}+xml`;
  const contentTypes =
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/xl/workbook.xml" ContentType="${type('sheet.main')}"/>` +
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${type('worksheet')}"/>` +
    `<Override PartName="/xl/styles.xml" ContentType="${type('styles')}"/>` +
    `<Override PartName="/xl/sharedStrings.xml" ContentType="${type('sharedStrings')}"/></Types>`;
  // In the order Excel writes them.
  return zipSync({
    '[Content_Types].xml': strToU8(contentTypes),
    '_rels/.rels': strToU8(rootRels),
    'xl/workbook.xml': strToU8(workbook),
    'xl/_rels/workbook.xml.rels': strToU8(workbookRels),
    'xl/worksheets/sheet1.xml': strToU8(sheet),
    'xl/styles.xml': strToU8(styles),
    'xl/sharedStrings.xml': strToU8(sharedStrings),
  });
}
