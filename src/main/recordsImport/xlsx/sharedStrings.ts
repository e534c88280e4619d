/**
 * A workbook's shared strings (xl/sharedStrings.xml), the texts its cells point at by number, as
 * StringItemText reads each: rich text joined, phonetic runs left out. Held in memory while the
 * sheet is read (a spreadsheet program writes every text there; the export writes none).
 */
import { StringItemText } from './stringItemText';
import { xmlEvents } from './xmlEvents';

export async function readSharedStrings(text: AsyncIterable<string>): Promise<string[]> {
  const strings: string[] = [];
  const item = new StringItemText();
  let inItem = false;
  const events = xmlEvents(text, {
    open(name) {
      if (name === 'si') inItem = true;
      else if (inItem) item.open(name);
    },
    close(name) {
      if (name === 'si') {
        strings.push(item.take());
        inItem = false;
      } else if (inItem) item.close(name);
    },
    text(t) {
      if (inItem) item.add(t);
    },
  });
  for await (const _ of events) void _;
  return strings;
}
