/**
 * An XLSX whose parts are written by hand (zip.js), for what exceljs's writer cannot write:
 * phonetic runs, error and date cells as Excel and other programs store them, 1904 day numbers,
 * built-in number formats by their number.
 */
import { TextReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { writeFileSync } from 'node:fs';

export interface HandWrittenParts {
  /** The inside of the sheet's `<sheetData>`. */
  sheetData: string;
  /** What the sheet holds after `<sheetData>` (`<mergeCells>`). */
  afterSheetData?: string;
  /** The inside of `<sst>`: `<si>` items. */
  sharedStrings?: string;
  /** The inside of `<styleSheet>` (`<numFmts>`, `<cellXfs>`). */
  styles?: string;
  /** The workbook counts days from 1904. */
  date1904?: boolean;
}

export async function writeHandWrittenXlsx(file: string, parts: HandWrittenParts): Promise<void> {
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const files: [string, string][] = [
    [
      'xl/_rels/workbook.xml.rels',
      `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${head}<workbook xmlns="${main}" xmlns:r="${rel}">${parts.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/worksheets/sheet1.xml',
      `${head}<worksheet xmlns="${main}"><sheetData>${parts.sheetData}</sheetData>${parts.afterSheetData ?? ''}</worksheet>`,
    ],
  ];
  if (parts.sharedStrings !== undefined) {
    files.push([
      'xl/sharedStrings.xml',
      `${head}<sst xmlns="${main}">${parts.sharedStrings}</sst>`,
    ]);
  }
  if (parts.styles !== undefined) {
    files.push([
      'xl/styles.xml',
      `${head}<styleSheet xmlns="${main}">${parts.styles}</styleSheet>`,
    ]);
  }
  const zip = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false });
  for (const [name, text] of files) await zip.add(name, new TextReader(text));
  writeFileSync(file, await zip.close());
}

/** An inline string cell. */
export const inlineCell = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
