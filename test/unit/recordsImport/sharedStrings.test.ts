/**
 * The shared strings as the sheet reads them (sharedStrings.ts): packed into blocks of texts and
 * end offsets, each text must come back as the list of the items' texts holds it, at every
 * number, across blocks, and nothing past the last.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSharedStrings } from '../../../src/main/recordsImport/xlsx/sharedStrings';

const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');

async function* pieces(xml: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < xml.length; at += size) yield xml.slice(at, at + size);
}

describe('the shared strings', () => {
  it('give back each text by its number, as a list of them would', async () => {
    const texts = fc.array(
      fc.string({ unit: fc.constantFrom('', 'a', 'é', '東', '😀', '&', '<', ' '), maxLength: 6 }),
      { maxLength: 9000, size: 'max' },
    );
    await fc.assert(
      fc.asyncProperty(texts, fc.integer({ min: 1, max: 5000 }), async (list, size) => {
        const xml = `<sst>${list.map((t) => (t === '' ? '<si/>' : `<si><t xml:space="preserve">${escape(t)}</t></si>`)).join('')}</sst>`;
        const strings = await readSharedStrings(pieces(xml, size));
        expect(strings.count).toBe(list.length);
        for (let i = 0; i < list.length; i++) expect(strings.get(i)).toBe(list[i]);
        expect(strings.get(list.length)).toBeUndefined();
        expect(strings.get(-1)).toBeUndefined();
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
