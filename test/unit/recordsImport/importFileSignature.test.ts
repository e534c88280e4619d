/**
 * A file whose bytes are not what its name says is refused at open, saying what it is: a CSV
 * renamed .xlsx, an XLSX renamed .csv, an Excel 97–2003 .xls under either name, an empty .xlsx.
 * Those were refused in a library's words ("File format is not recognized"), or as text "saved
 * in another encoding".
 */
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tempDir';
import { MODULE, PORTAL, recordsWorkspace } from '../records/workspace';

type Workspace = ReturnType<typeof recordsWorkspace>;

async function opened(w: Workspace, fileName: string, bytes: Buffer) {
  const { uploadId } = await w.ok('records.importUpload', {
    fileName,
    offset: 0,
    chunk: bytes.toString('base64'),
    last: true,
  });
  return w.call('records.importOpen', { portalId: PORTAL, moduleId: MODULE, uploadId });
}

describe('a file that is not what its name says', () => {
  it('is refused at open, saying what it is and what to choose instead', async () => {
    const w = recordsWorkspace();
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Assets').addRow(['Name']);
    const file = path.join(tempDir('portaldesk-import-'), 'a.xlsx');
    await book.xlsx.writeFile(file);
    const xlsx = readFileSync(file);
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    const refusal = async (name: string, bytes: Buffer) => {
      const answer = await opened(w, name, bytes);
      if (answer.ok) throw new Error(`${name} was opened`);
      return answer.error.message;
    };
    expect(await refusal('renamed.xlsx', Buffer.from('Name\r\nLaptop\r\n'))).toBe(
      'renamed.xlsx is not an XLSX workbook: an XLSX is a zip archive, and this file is not one (a CSV or other text renamed .xlsx, perhaps). Nothing was imported; choose the workbook as the spreadsheet saved it, or a CSV file with its .csv name.',
    );
    expect(await refusal('renamed.csv', xlsx)).toBe(
      'renamed.csv is not CSV text: it is a zip archive, as an XLSX workbook is (saved, or renamed, with a .csv name). Nothing was imported; choose it with its .xlsx name, or save it from the spreadsheet as "CSV UTF-8 (Comma delimited)".',
    );
    for (const name of ['old.xlsx', 'old.csv']) {
      expect(await refusal(name, xls)).toBe(
        `${name} is an Excel 97–2003 workbook (.xls), which the import does not read. Nothing was imported; in Excel, save it as "Excel Workbook (.xlsx)" or "CSV UTF-8 (Comma delimited)", and choose that file.`,
      );
    }
    expect(await refusal('empty.xlsx', Buffer.alloc(0))).toBe(
      "empty.xlsx is empty. Nothing was imported; its first sheet's first row must name the columns.",
    );
    // What its name says, each opens.
    expect((await opened(w, 'a.xlsx', xlsx)).ok).toBe(true);
    expect((await opened(w, 'a.csv', Buffer.from('\uFEFFName\r\nLaptop\r\n'))).ok).toBe(true);
  });
});
