import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contentRange,
  ifRangeAllows,
  parseRange,
  unsatisfiedRange,
} from '@portaldesk/emulator/http/byteRange';

describe('parseRange', () => {
  it('reads the three forms of a single byte range', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ kind: 'range', start: 0, end: 99 });
    expect(parseRange('bytes=500-', 1000)).toEqual({ kind: 'range', start: 500, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ kind: 'range', start: 900, end: 999 });
    expect(parseRange('bytes=7-7', 1000)).toEqual({ kind: 'range', start: 7, end: 7 });
  });

  it('clamps a last position or a suffix past the end', () => {
    expect(parseRange('bytes=900-5000', 1000)).toEqual({ kind: 'range', start: 900, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ kind: 'range', start: 0, end: 999 });
    expect(parseRange('bytes=0-99999999999999999999', 10)).toEqual({
      kind: 'range',
      start: 0,
      end: 9,
    });
  });

  it('accepts the unit in any case, spaces around the range and empty list elements', () => {
    expect(parseRange('Bytes=1-2', 10)).toEqual({ kind: 'range', start: 1, end: 2 });
    expect(parseRange('bytes= 1-2 ', 10)).toEqual({ kind: 'range', start: 1, end: 2 });
    expect(parseRange('bytes=1-2,', 10)).toEqual({ kind: 'range', start: 1, end: 2 });
  });

  it('finds a first position at or past the end, or an empty suffix, unsatisfiable', () => {
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=1000-2000', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores an absent, malformed or multiple range (the whole representation)', () => {
    for (const header of [
      undefined,
      '',
      'bytes',
      'bytes=',
      'bytes=,',
      'bytes=-',
      'bytes=5-2',
      'bytes=a-b',
      'bytes=1-2-3',
      'bytes=+1-2',
      'bytes=1.5-2',
      'bytes=0x1-2',
      'bytes=- 5',
      'bytes 0-1',
      'bytes =0-1',
      'items=0-1',
      'bytes=0-1,5-9',
      'bytes=0-1, bytes=3-4',
      'bytes=-5,-3',
    ]) {
      expect(parseRange(header, 1000), String(header)).toEqual({ kind: 'whole' });
    }
    // An empty representation has no byte positions; a suffix of it is sent whole.
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'whole' });
  });

  it('always selects a non-empty part inside the representation', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10_000 }),
        fc.option(fc.nat({ max: 20_000 }), { nil: undefined }),
        fc.option(fc.nat({ max: 20_000 }), { nil: undefined }),
        (total, first, last) => {
          const header = `bytes=${first ?? ''}-${last ?? ''}`;
          const range = parseRange(header, total);
          if (range.kind !== 'range') return;
          expect(range.start).toBeGreaterThanOrEqual(0);
          expect(range.start).toBeLessThanOrEqual(range.end);
          expect(range.end).toBeLessThan(total);
          if (first !== undefined) expect(range.start).toBe(first);
          else expect(range.end).toBe(total - 1);
        },
      ),
    );
  });
});

describe('ifRangeAllows', () => {
  const etag = '"1000000000001-0123456789abcdef"';

  it('allows the range without If-Range or with exactly the current strong tag', () => {
    expect(ifRangeAllows(undefined, etag)).toBe(true);
    expect(ifRangeAllows(etag, etag)).toBe(true);
  });

  it('refuses another tag, a weak tag and a date', () => {
    expect(ifRangeAllows('"1000000000001-fedcba9876543210"', etag)).toBe(false);
    expect(ifRangeAllows(`W/${etag}`, etag)).toBe(false);
    expect(ifRangeAllows('Sun, 06 Nov 1994 08:49:37 GMT', etag)).toBe(false);
    expect(ifRangeAllows('', etag)).toBe(false);
  });
});

describe('Content-Range values', () => {
  it('names the range and the size, or only the size', () => {
    expect(contentRange(0, 99, 1000)).toBe('bytes 0-99/1000');
    expect(unsatisfiedRange(1000)).toBe('bytes */1000');
  });
});
