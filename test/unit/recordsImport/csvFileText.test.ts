/**
 * A CSV's bytes as text: UTF-8 (byte order mark or not) and UTF-16 by its byte order mark read
 * back exactly, whatever piece a character is cut by; bytes of another encoding (Excel's
 * "CSV (Comma delimited)" in Windows-1252) and NUL characters refused in words, naming where.
 */
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSV_PIECE_BYTES, csvFileText } from '../../../src/main/recordsImport/csvFileText';
import { readImportRows } from '../../../src/main/recordsImport/importRows';
import { tempDir } from '../../support/tempDir';

async function textOf(file: string): Promise<string> {
  let text = '';
  for await (const piece of csvFileText(file)) text += piece;
  return text;
}

function utf16(text: string, order: 'le' | 'be'): Buffer {
  const le = Buffer.from(`\ufeff${text}`, 'utf16le');
  return order === 'le' ? le : le.swap16();
}

describe('csvFileText', () => {
  it('reads UTF-8 and UTF-16 (by its byte order mark) back exactly, across its pieces', async () => {
    const dir = tempDir('portaldesk-csvtext-');
    // Characters of one to four UTF-8 bytes and surrogate pairs, enough to cross several pieces.
    const text = fc
      .array(fc.constantFrom('a', ',', '\r\n', '\t', 'é', 'ü', '中', '😀', 'ß', '"'), {
        minLength: 0,
        maxLength: CSV_PIECE_BYTES,
      })
      .map((chars) => chars.join(''));
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom('utf-8', 'utf-8 bom', 'utf-16le', 'utf-16be'),
        async (content, encoding) => {
          const file = path.join(dir, 'a.csv');
          const bytes =
            encoding === 'utf-8'
              ? Buffer.from(content)
              : encoding === 'utf-8 bom'
                ? Buffer.from(`\ufeff${content}`)
                : utf16(content, encoding === 'utf-16le' ? 'le' : 'be');
          writeFileSync(file, bytes);
          expect(await textOf(file)).toBe(content);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('reads Excel\'s "Unicode Text" (UTF-16, tab-separated) as its rows', async () => {
    const file = path.join(tempDir('portaldesk-csvtext-'), 'a.txt');
    writeFileSync(file, utf16('name\tdescription\r\nMüller\tcafé 😀\r\n', 'le'));
    const rows: unknown[] = [];
    for await (const row of readImportRows(file, 'csv')) rows.push(row);
    expect(rows).toEqual([
      ['name', 'description'],
      ['Müller', 'café 😀'],
    ]);
  });

  it('refuses Windows-1252 bytes, naming the byte, its line and the text before it', async () => {
    const file = path.join(tempDir('portaldesk-csvtext-'), 'a.csv');
    writeFileSync(file, Buffer.from('name,description\r\nM\u00fcller,caf\u00e9\r\n', 'latin1'));
    await expect(textOf(file)).rejects.toThrow(
      /^the file is not UTF-8 text: byte 20, on line 2 after "M", is not part of a UTF-8 character; .*save it with "Save as" and the type "CSV UTF-8 \(Comma delimited\)", then choose it again$/,
    );
  });

  it('finds the byte far into the file, past the pieces read before it', async () => {
    const file = path.join(tempDir('portaldesk-csvtext-'), 'a.csv');
    const rows = Array.from({ length: 5000 }, (_, i) => `${i},Straße ${i}\n`).join('');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(rows),
        Buffer.from('5000,na\u00efve\r\n', 'latin1'),
        Buffer.from('5001,ok\n'),
      ]),
    );
    const at = Buffer.byteLength(rows) + '5000,na'.length;
    await expect(textOf(file)).rejects.toThrow(
      `byte ${(at + 1).toLocaleString('en-US')}, on line 5,001 after "5000,na", is not`,
    );
  });

  it('refuses a character cut off at the end of the file', async () => {
    const file = path.join(tempDir('portaldesk-csvtext-'), 'a.csv');
    writeFileSync(file, Buffer.from([0x61, 0x0a, 0x62, 0xe4, 0xb8]));
    await expect(textOf(file)).rejects.toThrow(/byte 4, on line 2 after "b", is not/);
  });

  it('refuses UTF-16 without a byte order mark (NUL characters), in words', async () => {
    const file = path.join(tempDir('portaldesk-csvtext-'), 'a.txt');
    writeFileSync(file, Buffer.from('name\tdescription\r\n', 'utf16le'));
    await expect(textOf(file)).rejects.toThrow(
      /^the file holds a NUL character \(byte 2, line 1\), which no spreadsheet writes in a CSV: it is probably UTF-16/,
    );
  });
});
