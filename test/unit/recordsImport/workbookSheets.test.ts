/**
 * The workbook's sheets and date system read from its own parts (workbookSheets.ts), as the
 * programs that write XLSX write them: prefixed element names, `true` or `1`, targets relative to
 * `xl/` or from the zip's root, a first tab whose sheet is not the first part.
 */
import ExcelJS from 'exceljs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportRows } from '../../../src/main/recordsImport/importRows';
import { tempDir } from '../../support/tempDir';
import {
  readRelationships,
  readWorkbook,
  workbookPartPath,
} from '../../../src/main/recordsImport/xlsx/workbookSheets';

async function* pieces(text: string, size = 7): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

describe("a workbook's sheets", () => {
  it('lists the sheets in tab order by their relationship, whatever the prefixes', async () => {
    const workbook = `<x:workbook xmlns:x="${MAIN}" xmlns:rel="${REL}"><x:workbookPr date1904="true"/><x:sheets><x:sheet name="Second part, first tab" sheetId="2" rel:id="rId7"/><x:sheet name="B" sheetId="1" rel:id="rId1"/></x:sheets></x:workbook>`;
    expect(await readWorkbook(pieces(workbook))).toEqual({
      sheets: ['rId7', 'rId1'],
      date1904: true,
    });
  });

  it('lists only the sheets with a tab, hidden ones when no sheet has one', async () => {
    const of = async (states: string[]) =>
      (
        await readWorkbook(
          pieces(
            `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>${states
              .map(
                (state, i) =>
                  `<sheet name="S${i}" sheetId="${i + 1}"${state === '' ? '' : ` state="${state}"`} r:id="rId${i}"/>`,
              )
              .join('')}</sheets></workbook>`,
          ),
        )
      ).sheets;
    expect(await of(['hidden', 'veryHidden', '', 'visible'])).toEqual(['rId2', 'rId3']);
    expect(await of(['hidden', 'veryHidden'])).toEqual(['rId0', 'rId1']);
  });

  it('imports the first sheet with a tab, not a hidden one before it', async () => {
    const book = new ExcelJS.Workbook();
    const lists = book.addWorksheet('Lists');
    lists.addRow(['Category']);
    lists.addRow(['Hardware']);
    lists.state = 'hidden';
    const assets = book.addWorksheet('Assets');
    assets.addRow(['Name']);
    assets.addRow(['Laptop']);
    const file = path.join(tempDir('portaldesk-workbook-'), 'a.xlsx');
    await book.xlsx.writeFile(file);
    const rows = [];
    for await (const row of readImportRows(file, 'xlsx')) rows.push(row);
    expect(rows).toEqual([['Name'], ['Laptop']]);
  });

  it('counts dates from 1900 unless the workbook says 1904', async () => {
    const of = (pr: string) =>
      readWorkbook(
        pieces(
          `<workbook xmlns="${MAIN}" xmlns:r="${REL}">${pr}<sheets><sheet name="A" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        ),
      );
    expect((await of('')).date1904).toBe(false);
    expect((await of('<workbookPr date1904="0"/>')).date1904).toBe(false);
    expect((await of('<workbookPr date1904="false"/>')).date1904).toBe(false);
    expect((await of('<workbookPr date1904="1"/>')).date1904).toBe(true);
  });

  it('reads the targets of the relationships', async () => {
    const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId7" Type="${REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/></Relationships>`;
    expect([...(await readRelationships(pieces(rels)))]).toEqual([
      ['rId1', 'worksheets/sheet1.xml'],
      ['rId7', '/xl/worksheets/sheet2.xml'],
    ]);
  });

  it('finds the part of a target relative to xl/ or from the root', () => {
    expect(workbookPartPath('worksheets/sheet1.xml')).toBe('xl/worksheets/sheet1.xml');
    expect(workbookPartPath('./worksheets/sheet1.xml')).toBe('xl/worksheets/sheet1.xml');
    expect(workbookPartPath('/xl/worksheets/sheet2.xml')).toBe('xl/worksheets/sheet2.xml');
    expect(workbookPartPath('../xl/worksheets/sheet3.xml')).toBe('xl/worksheets/sheet3.xml');
  });

  it('reads hostile ids as plain text: prototype keys, and targets that climb out of xl/', async () => {
    const workbook = `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="constructor" sheetId="1" r:id="__proto__"/><sheet name="B" sheetId="2" r:id="constructor"/></sheets></workbook>`;
    expect((await readWorkbook(pieces(workbook))).sheets).toEqual(['__proto__', 'constructor']);
    const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="__proto__" Target="../../../../etc/passwd"/><Relationship Id="constructor" Target="worksheets/sheet1.xml"/></Relationships>`;
    const targets = await readRelationships(pieces(rels));
    expect(targets.get('__proto__')).toBe('../../../../etc/passwd');
    expect(targets.get('toString')).toBeUndefined();
    // A path inside the zip, looked up among its entries: never a file outside it.
    expect(workbookPartPath(targets.get('__proto__')!)).toBe('etc/passwd');
  });

  it('refuses a workbook that is not well-formed XML, in the parser’s words', async () => {
    await expect(readWorkbook(pieces('<workbook><sheets></workbook>'))).rejects.toThrow(/\d+:\d+/);
  });
});
