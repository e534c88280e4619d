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
  parser.on('opentag', (node) => handlers.open(local(node.name), node.attributes));
  parser.on('closetag', (node) => handlers.close(local(node.name)));
  parser.on('text', (text) => handlers.text(text));
  parser.on('cdata', (text) => handlers.text(text));
  for await (const piece of text) {
    parser.write(piece);
    yield;
  }
  parser.close();
  yield;
}
