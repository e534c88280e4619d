/** Issue 19: what a request bin keeps of a request's headers, and how it reads them back. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BIN_HEADERS, MAX_BIN_HEADER_BYTES } from '../../../src/shared/ipc/areas/router';
import {
  binHeadersText,
  boundBinHeaders,
  readBinHeaders,
} from '../../../src/main/router/delivery/binHeaders';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('the headers a request bin keeps', () => {
  it('are all of them within the bounds, and past them as many as fit, in order', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ minLength: 2000, maxLength: 6000, unit: 'grapheme' }),
    );
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 90 }), (headers) => {
        const { headers: kept, omitted } = boundBinHeaders(headers);
        const keptNames = Object.keys(kept);
        const all = Object.keys(headers);
        expect(keptNames.length + omitted).toBe(all.length);
        expect(keptNames.length).toBeLessThanOrEqual(MAX_BIN_HEADERS);
        const size = keptNames.reduce((sum, n) => sum + bytes(n) + bytes(kept[n]!), 0);
        expect(size).toBeLessThanOrEqual(MAX_BIN_HEADER_BYTES);
        // In the request's order, values unchanged.
        expect(keptNames).toEqual(all.filter((n) => keptNames.includes(n)));
        for (const n of keptNames) expect(kept[n]).toBe(headers[n]);
        // Nothing left out that would still have fitted when its turn came.
        let used = 0;
        let count = 0;
        for (const n of all) {
          const fits =
            count < MAX_BIN_HEADERS && used + bytes(n) + bytes(headers[n]!) <= MAX_BIN_HEADER_BYTES;
          expect(keptNames.includes(n)).toBe(fits);
          if (fits) {
            used += bytes(n) + bytes(headers[n]!);
            count += 1;
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('counts headers past the number bound', () => {
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`x-h${i}`, 'v']));
    const { headers, omitted } = boundBinHeaders(many);
    expect(Object.keys(headers)).toHaveLength(MAX_BIN_HEADERS);
    expect(omitted).toBe(6);
  });

  it('read back as stored, and entries stored before the bound as they were', () => {
    const headers = { 'content-type': 'application/json', constructor: 'c' };
    expect(readBinHeaders(binHeadersText(headers))).toEqual({ headers, omitted: 0 });
    expect(readBinHeaders(JSON.stringify(headers))).toEqual({ headers, omitted: 0 });
    // An old entry with a header named "headers" is still a headers object (its value is text).
    expect(readBinHeaders('{"headers":"h","omitted":"2"}')).toEqual({
      headers: { headers: 'h', omitted: '2' },
      omitted: 0,
    });
  });
});
