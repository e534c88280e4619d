/**
 * An XLSX of text cells as a spreadsheet program saves one: every text in the shared strings part,
 * the sheet's cells pointing at them. Made by hand (zip.js) because exceljs's own writer damages
 * such a file: a character cut by one of its buffers is saved as U+FFFD. Its parts are stored
 * in the order `order` gives (by default the sheet before the shared strings and the workbook
 * last, the order exceljs's streaming reader once lost the workbook in).
 */
import { TextReader, Uint8ArrayReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { writeFileSync } from 'node:fs';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const column = (i: number) => String.fromCharCode(65 + i);

export async function writeSharedStringsXlsx(
  file: string,
  rows: readonly (readonly string[])[],
  /** Bytes to store as the sheet instead of its XML (damaged files). */
  sheetBytes?: Uint8Array,
): Promise<void> {
  const strings: string[] = [];
  const sheetRows = rows
    .map((row, r) => {
      const cells = row
        .map((text, c) => {
          strings.push(text);
          return `<c r="${column(c)}${r + 1}" t="s"><v>${strings.length - 1}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cells}</row>`;
    })
    .join('');
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const parts: [string, string][] = [
    [
      '[Content_Types].xml',
      `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ],
    [
      'xl/worksheets/sheet1.xml',
      `${head}<worksheet xmlns="${main}"><sheetData>${sheetRows}</sheetData></worksheet>`,
    ],
    [
      'xl/sharedStrings.xml',
      `${head}<sst xmlns="${main}" count="${strings.length}" uniqueCount="${strings.length}">${strings
        .map((text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`)
        .join('')}</sst>`,
    ],
    [
      'xl/workbook.xml',
      `${head}<workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Assets" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
  ];
  const zip = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false });
  for (const [name, text] of parts) {
    const bytes = name === 'xl/worksheets/sheet1.xml' ? sheetBytes : undefined;
    await zip.add(name, bytes ? new Uint8ArrayReader(bytes) : new TextReader(text));
  }
  writeFileSync(file, await zip.close());
}
