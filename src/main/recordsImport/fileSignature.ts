/**
 * Whether a file's first bytes are what its name says, and in words what it is when they are
 * not. An XLSX is a zip archive; a CSV is text. A CSV renamed .xlsx was refused in zip.js's
 * words ("File format is not recognized"), and an XLSX renamed .csv as text "probably saved in
 * another encoding", whose advice (save as CSV UTF-8) missed what was wrong. Pure.
 */
import type { ImportFormat } from './importRows';

/** Bytes read to know a file's kind. */
export const SIGNATURE_BYTES = 8;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** An OLE2 compound file: Excel 97–2003's .xls (and other old Office files). */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);

/** Why a file named as `format` is not one, or null when its first bytes may be. */
export function misnamedFile(
  fileName: string,
  format: ImportFormat,
  first: Uint8Array,
): string | null {
  const nothing = 'Nothing was imported';
  if (startsWith(first, OLE2)) {
    return `${fileName} is an Excel 97–2003 workbook (.xls), which the import does not read. ${nothing}; in Excel, save it as "Excel Workbook (.xlsx)" or "CSV UTF-8 (Comma delimited)", and choose that file.`;
  }
  if (format === 'csv' && startsWith(first, ZIP)) {
    return `${fileName} is not CSV text: it is a zip archive, as an XLSX workbook is (saved, or renamed, with a .csv name). ${nothing}; choose it with its .xlsx name, or save it from the spreadsheet as "CSV UTF-8 (Comma delimited)".`;
  }
  if (format === 'xlsx' && first.length === 0) {
    return `${fileName} is empty. ${nothing}; its first sheet's first row must name the columns.`;
  }
  if (format === 'xlsx' && !startsWith(first, ZIP)) {
    return `${fileName} is not an XLSX workbook: an XLSX is a zip archive, and this file is not one (a CSV or other text renamed .xlsx, perhaps). ${nothing}; choose the workbook as the spreadsheet saved it, or a CSV file with its .csv name.`;
  }
  return null;
}
