import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseKeepingExactNumbers } from '../../../../src/main/api/client/exactNumbers';
import { isBlank, parseJsonBytes } from '../../../../src/main/api/client/parseJsonBytes';

/**
 * What the client did before: the whole reply as one string, then JSON.parse (keeping numbers a
 * double cannot hold as their text: exactNumbers.property.test.ts holds that part).
 */
function reference(bytes: Uint8Array): { value: unknown } | { error: true } {
  try {
    return { value: parseKeepingExactNumbers(new TextDecoder().decode(bytes)) };
  } catch {
    return { error: true };
  }
}

function cut(bytes: Uint8Array, splitAbove: number): { value: unknown } | { error: true } {
  try {
    return { value: parseJsonBytes(bytes, { splitAbove }) };
  } catch (error) {
    expect(error).toBeInstanceOf(SyntaxError);
    return { error: true };
  }
}

const encode = (text: string) => new TextEncoder().encode(text);
/** Small thresholds, so that small values are cut at every level. */
const splitAbove = fc.integer({ min: 1, max: 64 });
const json = fc.oneof(fc.jsonValue(), fc.jsonValue({ noUnicodeString: false }));
const spaced = fc
  .tuple(json, fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n'))
  .map(([value, indent]) => JSON.stringify(value, null, indent as never) ?? 'null');

describe('parseJsonBytes', () => {
  it('gives what JSON.parse of the decoded text gives, for any JSON cut anywhere', () => {
    fc.assert(
      fc.property(spaced, splitAbove, (text, limit) => {
        const bytes = encode(text);
        expect(cut(bytes, limit)).toStrictEqual(reference(bytes));
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses exactly what JSON.parse refuses: texts damaged by a byte added, dropped or changed', () => {
    const damaged = fc
      .tuple(
        spaced,
        fc.nat(),
        fc.constantFrom('insert', 'delete', 'replace'),
        fc.constantFrom(
          ...[',', ':', '{', '}', '[', ']', '"', '\\', ' ', 'x', '1', 'e', '-', '\u00e9', '\ufeff'],
        ),
      )
      .map(([text, at, how, char]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        if (how === 'insert') return text.slice(0, i) + char + text.slice(i);
        if (how === 'delete') return text.slice(0, i) + text.slice(i + 1);
        return text.slice(0, i) + char + text.slice(i + 1);
      });
    fc.assert(
      fc.property(damaged, splitAbove, (text, limit) => {
        const bytes = encode(text);
        expect(cut(bytes, limit)).toStrictEqual(reference(bytes));
      }),
      { numRuns: 3_000 },
    );
  });

  it('decodes invalid UTF-8 and byte order marks as TextDecoder does', () => {
    const raw = fc
      .tuple(
        fc.constantFrom('', '\ufeff', '\ufeff\ufeff'),
        fc.array(fc.jsonValue(), { maxLength: 5 }),
        fc.uint8Array({ minLength: 1, maxLength: 6 }).map((bytes) => bytes.map((b) => b | 0x80)),
      )
      .map(([bom, items, junk]) => {
        const text = JSON.stringify({ items, note: 'JUNK' });
        const [before, after] = text.split('JUNK') as [string, string];
        return new Uint8Array([...encode(bom), ...encode(before), ...junk, ...encode(after)]);
      });
    fc.assert(
      fc.property(raw, splitAbove, (bytes, limit) => {
        expect(cut(bytes, limit)).toStrictEqual(reference(bytes));
      }),
      { numRuns: 1_000 },
    );
  });

  it('keeps a member named __proto__ as the object’s own, as JSON.parse does', () => {
    const bytes = encode(`{"__proto__": {"polluted": true}, "list": [1, 2, 3]}`);
    const value = parseJsonBytes(bytes, { splitAbove: 4 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'list']);
    expect(value).toStrictEqual(JSON.parse(new TextDecoder().decode(bytes)));
  });

  it('a page of records the size of the service’s is parsed in pieces, equal to the whole', () => {
    const page = {
      entities: Array.from({ length: 200 }, (_, i) => ({
        id: String(1_000_000 + i),
        name: `Asset #${i} — München ✓`,
        description: 'x'.repeat(1_000),
      })),
      page_info: { page: 1, per_page: 200, has_next_page: true },
    };
    const bytes = encode(JSON.stringify(page));
    expect(bytes.length).toBeGreaterThan(128 * 1024);
    expect(parseJsonBytes(bytes)).toStrictEqual(page);
  });

  it('a hostile reply nested 100,000 deep is parsed as JSON.parse parses it, in one pass', () => {
    const deep = encode(`{"entities":[${'['.repeat(100_000)}${']'.repeat(100_000)}],"x":1}`);
    const started = performance.now();
    const value = parseJsonBytes(deep, { splitAbove: 1_024 }) as { entities: unknown[]; x: number };
    // Walked by a loop: a recursive deep-equal would overflow the stack itself.
    let depth = 0;
    let level: unknown = value.entities[0];
    while (Array.isArray(level) && level.length === 1) {
      depth++;
      level = level[0];
    }
    expect(level).toEqual([]);
    expect(depth + 1).toBe(100_000);
    expect(value.x).toBe(1);
    // A scan per level would be 10^10 bytes read: minutes, not this.
    expect(performance.now() - started).toBeLessThan(5_000);
    const unclosed = encode(`{"entities":[${'['.repeat(100_000)}]}`);
    expect(() => parseJsonBytes(unclosed, { splitAbove: 1_024 })).toThrow(SyntaxError);
  });

  it('a reply of 5 MB of one string, and 200,000 tiny items, equal JSON.parse', () => {
    for (const text of [
      JSON.stringify({ entities: ['é'.repeat(2_500_000)] }),
      JSON.stringify({ entities: Array.from({ length: 200_000 }, (_, i) => i % 7) }),
    ]) {
      const bytes = encode(text);
      expect(parseJsonBytes(bytes)).toStrictEqual(JSON.parse(text));
    }
  });

  it('isBlank is true for JSON white space only', () => {
    expect(isBlank(encode(' \r\n\t'))).toBe(true);
    expect(isBlank(encode(''))).toBe(true);
    expect(isBlank(encode(' 0 '))).toBe(false);
    expect(isBlank(encode('\u00a0'))).toBe(false);
  });
});
