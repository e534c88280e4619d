/**
 * The text of a CSV file, read streamed and decoded strictly: UTF-8 (with or without its byte
 * order mark), or UTF-16 when a byte order mark says so (Excel's "Unicode Text", tab-separated,
 * which CsvReader reads). Any other encoding is refused in words, naming where the first byte
 * that is not UTF-8 is, instead of being read with U+FFFD in place of its letters (Excel's
 * "CSV (Comma delimited)" writes the computer's code page: "Müller" would become "M�ller" and be
 * queued as such). A NUL character is refused too: it is what UTF-16 without a byte order mark
 * looks like read as UTF-8 (every other byte), and no spreadsheet writes one in a CSV.
 */
import { Buffer } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { completeLength, Utf8Chunks } from '../utf8Chunks';
import { RecordsImportError } from './recordsImportError';

/** Bytes read at once: the file is never held, a piece at a time. */
export const CSV_PIECE_BYTES = 64 * 1024;

/** Characters of the line shown before a byte that is not UTF-8, so the user can find it. */
const CONTEXT_CHARS = 20;

const SAVE_AS_UTF8 =
  'in Excel, save it with "Save as" and the type "CSV UTF-8 (Comma delimited)", then choose it again';

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The encoding a file's first bytes announce: UTF-16 by its byte order mark, else UTF-8. */
function encodingOf(head: Uint8Array): Encoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** Where in a file a byte is, as a user finds it in a text editor, and the text before it. */
interface BytePlace {
  /** 1-based, as the file's bytes count. */
  byte: number;
  /** 1-based; CRLF, LF and CR each end a line. */
  line: number;
  /** Up to CONTEXT_CHARS characters of its line before it. */
  before: string;
}

/**
 * The first byte of `bytes` (which start at a character) that is not UTF-8, or -1: Node's
 * decoder puts U+FFFD where it meets one, so the first U+FFFD that the file does not spell
 * (EF BF BD) is it.
 */
function firstInvalid(bytes: Buffer): number {
  const text = bytes.toString('utf8');
  let byte = 0;
  let char = 0;
  for (let at = text.indexOf('\ufffd'); at !== -1; at = text.indexOf('\ufffd', at + 1)) {
    byte += Buffer.byteLength(text.slice(char, at));
    char = at;
    if (!(bytes[byte] === 0xef && bytes[byte + 1] === 0xbf && bytes[byte + 2] === 0xbd)) {
      return byte;
    }
  }
  return -1;
}

/**
 * Where in `file` (UTF-8) the first fault `find` finds in a run of whole characters is, or (with
 * `cutShort`) the last character cut short. Read again from the start, streamed, only once a
 * piece failed: a reading that succeeds pays nothing for the place.
 */
async function placeOf(
  file: string,
  find: (bytes: Buffer) => number,
  cutShort: boolean,
): Promise<BytePlace | null> {
  const stream = createReadStream(file, { highWaterMark: CSV_PIECE_BYTES });
  let carry = Buffer.alloc(0);
  let offset = 0;
  let line = 1;
  let crLast = false;
  let lineText = '';
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, piece]) : piece;
      const cut = completeLength(bytes);
      carry = Buffer.from(bytes.subarray(cut));
      const body = bytes.subarray(0, cut);
      const fault = find(body);
      const text = body.subarray(0, fault === -1 ? body.length : fault).toString('utf8');
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x0a) {
          if (!crLast) line++;
          lineText = '';
        } else if (c === 0x0d) {
          line++;
          lineText = '';
        } else lineText += text[i];
        crLast = c === 0x0d;
        if (lineText.length > 2 * CONTEXT_CHARS) lineText = lineText.slice(-CONTEXT_CHARS);
      }
      if (fault !== -1) {
        return { byte: offset + fault + 1, line, before: lineText.slice(-CONTEXT_CHARS) };
      }
      offset += cut;
    }
    return cutShort && carry.length > 0
      ? { byte: offset + 1, line, before: lineText.slice(-CONTEXT_CHARS) }
      : null;
  } finally {
    stream.destroy();
  }
}

async function notUtf8(file: string): Promise<RecordsImportError> {
  const place = await placeOf(file, firstInvalid, true);
  const where =
    place === null
      ? ''
      : `: byte ${place.byte.toLocaleString('en-US')}, on line ${place.line.toLocaleString('en-US')}${place.before === '' ? '' : ` after "${place.before}"`}, is not part of a UTF-8 character`;
  return new RecordsImportError(
    `the file is not UTF-8 text${where}; it was probably saved in another encoding (Excel's "CSV (Comma delimited)" uses the computer's code page), whose letters would be imported wrong; ${SAVE_AS_UTF8}`,
  );
}

async function nulFound(file: string, encoding: Encoding): Promise<RecordsImportError> {
  const place =
    encoding === 'utf-8' ? await placeOf(file, (bytes) => bytes.indexOf(0), false) : null;
  const where =
    place === null
      ? ''
      : ` (byte ${place.byte.toLocaleString('en-US')}, line ${place.line.toLocaleString('en-US')})`;
  return new RecordsImportError(
    `the file holds a NUL character${where}, which no spreadsheet writes in a CSV: it is probably UTF-16 text without a byte order mark, or not text at all; ${SAVE_AS_UTF8}`,
  );
}

/** The text of `file`, a piece at a time; a RecordsImportError, in words, when it is not text. */
export async function* csvFileText(file: string): AsyncGenerator<string> {
  const stream = createReadStream(file, { highWaterMark: CSV_PIECE_BYTES });
  // UTF-8 through Utf8Chunks (Node's native check; TextDecoder's streaming mode cost a third of a
  // backup's verification), UTF-16 through TextDecoder: both refuse what is not their encoding.
  let decoder: { decode(bytes: Uint8Array, last: boolean): string } | null = null;
  let encoding: Encoding = 'utf-8';
  const decoderOf = (of: Encoding) => {
    if (of === 'utf-8') {
      const utf8 = new Utf8Chunks();
      let started = false;
      return {
        decode: (bytes: Uint8Array, last: boolean) => {
          let text = utf8.decode(bytes) + (last ? utf8.end() : '');
          // The byte order mark is dropped, as TextDecoder drops it.
          if (!started && text !== '') {
            started = true;
            if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
          }
          return text;
        },
      };
    }
    const utf16 = new TextDecoder(of, { fatal: true });
    return { decode: (bytes: Uint8Array, last: boolean) => utf16.decode(bytes, { stream: !last }) };
  };
  // The first bytes wait until there are enough to hold a byte order mark.
  let head: Buffer | null = Buffer.alloc(0);
  const decode = async (bytes: Uint8Array, last: boolean): Promise<string> => {
    let text: string;
    try {
      text = decoder!.decode(bytes, last);
    } catch (error) {
      // Utf8Error, or TextDecoder's TypeError: the bytes are not of the encoding.
      if (!(error instanceof TypeError)) throw error;
      if (encoding === 'utf-8') throw await notUtf8(file);
      throw new RecordsImportError(
        `the file starts as UTF-16 text (Excel's "Unicode Text") but its bytes end in the middle of a character or pair a surrogate wrongly; ${SAVE_AS_UTF8}`,
      );
    }
    if (text.includes('\u0000')) throw await nulFound(file, encoding);
    return text;
  };
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      if (head !== null) {
        head = Buffer.concat([head, piece]);
        if (head.length < 3) continue;
        encoding = encodingOf(head);
        decoder = decoderOf(encoding);
        const first = head;
        head = null;
        yield await decode(first, false);
        continue;
      }
      yield await decode(piece, false);
    }
    if (head !== null) {
      encoding = encodingOf(head);
      decoder = decoderOf(encoding);
      yield await decode(head, true);
    } else yield await decode(new Uint8Array(0), true);
  } finally {
    stream.destroy();
  }
}
