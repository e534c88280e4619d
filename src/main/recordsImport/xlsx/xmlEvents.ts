/**
 * The elements of an XML part read streamed (saxes, the parser exceljs itself uses), for the
 * readers of a workbook's parts that exceljs reads wrongly (sharedStrings.ts, sheetXmlRows.ts).
 * Names are local: a part written with a prefix (`<x:c>`, as some libraries write) reads as one
 * written without.
 */
import { SaxesParser } from 'saxes';

export interface XmlHandlers {
  open(name: string, attributes: Readonly<Record<string, string>>): void;
  close(name: string): void;
  text(text: string): void;
}

/**
 * Ours: the deepest a part's elements may nest. A workbook's parts nest a handful deep (worksheet,
 * sheetData, row, c, is, r, t); the parser keeps every open element, so a part of millions of
 * elements never closed (a few KB zipped) held hundreds of megabytes.
 */
export const XML_MAX_DEPTH = 64;

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Feeds `text` to `handlers`, a piece at a time, yielding after each piece so the caller can hand
 * on what the piece completed; a part that is not well-formed XML throws (saxes's words: line,
 * column, what is wrong).
 */
export async function* xmlEvents(
  text: AsyncIterable<string>,
  handlers: XmlHandlers,
): AsyncGenerator<void> {
  const parser = new SaxesParser();
  let depth = 0;
  parser.on('opentag', (node) => {
    // A self-closing element is closed at once (saxes sends its closetag too).
    if (++depth > XML_MAX_DEPTH) {
      throw new Error(
        `its XML nests elements more than ${XML_MAX_DEPTH} deep, as no workbook does`,
      );
    }
    handlers.open(local(node.name), node.attributes);
  });
  parser.on('closetag', (node) => {
    depth--;
    handlers.close(local(node.name));
  });
  parser.on('text', (text) => handlers.text(text));
  parser.on('cdata', (text) => handlers.text(text));
  for await (const piece of text) {
    parser.write(piece);
    yield;
  }
  parser.close();
  yield;
}
