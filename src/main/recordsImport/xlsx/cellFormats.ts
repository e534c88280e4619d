/**
 * The number format of each cell format of a workbook (xl/styles.xml: `<cellXfs>`, which a
 * cell's `s` points into; their `numFmtId` is a code the workbook writes in `<numFmts>`, or a
 * built-in one), as what it makes of a number and to which unit (numberFormatKind.ts). A workbook holds a few
 * dozen of them at most.
 */
import { builtInFormat, numberFormat, type NumberFormat } from './numberFormatKind';
import { xmlEvents } from './xmlEvents';

export async function readCellFormats(text: AsyncIterable<string>): Promise<NumberFormat[]> {
  const codes = new Map<number, string>();
  const ids: number[] = [];
  // Only these lists: <cellStyleXfs> holds formats of named styles, and the <numFmt> of a <dxf>
  // (conditional formatting) need not match the workbook's.
  let inside: 'numFmts' | 'cellXfs' | null = null;
  const events = xmlEvents(text, {
    open(name, attributes) {
      if (name === 'numFmts' || name === 'cellXfs') inside = name;
      else if (name === 'numFmt' && inside === 'numFmts' && attributes.formatCode !== undefined) {
        codes.set(Number(attributes.numFmtId), attributes.formatCode);
      } else if (name === 'xf' && inside === 'cellXfs') {
        ids.push(Number(attributes.numFmtId ?? 0));
      }
    },
    close(name) {
      if (name === inside) inside = null;
    },
    text() {},
  });
  for await (const _ of events) void _;
  return ids.map((id) => {
    const code = codes.get(id);
    return code === undefined ? builtInFormat(id) : numberFormat(code);
  });
}
