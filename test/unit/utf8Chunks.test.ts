/** Utf8Chunks against TextDecoder (fatal): the same text, or an error, however the bytes are cut. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Utf8Chunks } from '../../src/main/utf8Chunks';

function reference(bytes: Uint8Array): string | 'error' {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return 'error';
  }
}

function chunked(bytes: Uint8Array, cuts: number[]): string | 'error' {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const decoder = new Utf8Chunks();
  let text = '';
  let from = 0;
  try {
    for (const point of [...points, bytes.length]) {
      text += decoder.decode(bytes.subarray(from, point));
      from = point;
    }
    return text + decoder.end();
  } catch {
    return 'error';
  }
}

/** Valid text, then sometimes a few bytes changed, inserted or cut off. */
const bytesArbitrary = fc
  .tuple(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.array(
      fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'insert', 'cut')),
      {
        maxLength: 3,
      },
    ),
  )
  .map(([text, edits]) => {
    let bytes = [...new TextEncoder().encode(text)];
    for (const [at, value, kind] of edits) {
      const index = bytes.length === 0 ? 0 : at % bytes.length;
      if (kind === 'set' && bytes.length > 0) bytes[index] = value;
      else if (kind === 'insert') bytes.splice(index, 0, value);
      else bytes = bytes.slice(0, index);
    }
    return Uint8Array.from(bytes);
  });

describe('Utf8Chunks', () => {
  it('agrees with a fatal TextDecoder for any bytes cut anywhere', () => {
    fc.assert(
      fc.property(bytesArbitrary, fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        expect(chunked(bytes, cuts)).toBe(reference(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('joins a four-byte character cut byte by byte, and refuses one cut off at the end', () => {
    const bytes = new TextEncoder().encode('a😀b');
    expect(chunked(bytes, [1, 2, 3, 4])).toBe('a😀b');
    expect(chunked(bytes.subarray(0, 3), [1, 2])).toBe('error');
    expect(chunked(Uint8Array.from([0xc3]), [])).toBe('error');
    expect(chunked(Uint8Array.from([0x80, 0x80, 0x80, 0x80]), [2])).toBe('error');
    expect(chunked(Uint8Array.from([0xed, 0xa0, 0x80]), [1])).toBe('error'); // a lone surrogate
  });
});
