/**
 * The streaming element splitter for backup archive entries, held to `JSON.parse`: the same
 * values for every document it accepts, cut into chunks anywhere, and a refusal for every text
 * `JSON.parse` refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JsonElementSplitter,
  JsonStreamError,
  MAX_JSON_DEPTH,
} from '../../../src/main/backups/jsonElements';

const RUNS = { numRuns: 300 };
const LIMIT = 16 * 1024 * 1024;

/** Feeds the chunks in order and ends; returns every element emitted. */
function splitChunks(chunks: readonly string[], maxElementBytes = LIMIT): unknown[] {
  const splitter = new JsonElementSplitter({ maxElementBytes });
  const out: unknown[] = [];
  for (const chunk of chunks) out.push(...splitter.push(chunk));
  out.push(...splitter.end());
  return out;
}

/** The error the splitter throws for these chunks (fails the test if it throws none). */
function refusal(chunks: readonly string[], maxElementBytes = LIMIT): JsonStreamError {
  try {
    splitChunks(chunks, maxElementBytes);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonStreamError);
    expect((error as Error).name).toBe('JsonStreamError');
    return error as JsonStreamError;
  }
  throw new Error(`accepted ${JSON.stringify(chunks.join(''))}`);
}

interface Chunking {
  oneChar: boolean;
  cuts: number[];
}

const chunkingArb: fc.Arbitrary<Chunking> = fc.record({
  oneChar: fc.boolean(),
  cuts: fc.array(fc.nat(), { maxLength: 12 }),
});

/** Cuts the text one character a chunk, or at the given points (empty chunks included). */
function chunked(text: string, { oneChar, cuts }: Chunking): string[] {
  if (oneChar) return Array.from({ length: text.length }, (_, i) => text.charAt(i));
  const points = cuts.map((cut) => cut % (text.length + 1)).sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

/** Every way of cutting the text in two, and one character a chunk. */
function everyCut(text: string): string[][] {
  const ways = [[text], Array.from(text)];
  for (let i = 0; i <= text.length; i++) ways.push([text.slice(0, i), text.slice(i)]);
  ways.push(Array.from({ length: text.length }, (_, i) => text.charAt(i)));
  return ways;
}

/** String content rich in what a splitter could trip on, besides any code point at all. */
const stringUnit = fc.oneof(
  fc.constantFrom(
    '"',
    '\\',
    ']',
    '[',
    '{',
    '}',
    ',',
    ':',
    '\n',
    'é',
    '€',
    '😀',
    '\u2028',
    '\ud83d',
  ),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const jsonValueArb = fc.jsonValue({ stringUnit, maxDepth: 4 });
const whitespace = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 3 });

/** A value's JSON text, compact or indented (so with whitespace inside it too). */
const valueText = (value: fc.Arbitrary<fc.JsonValue>): fc.Arbitrary<string> =>
  fc
    .tuple(value, fc.constantFrom(undefined, 1, '\t', ' \r\n'))
    .map(([v, gap]) => JSON.stringify(v, null, gap));

/** A top-level array's text, with whitespace of any kind around everything. */
const arrayText: fc.Arbitrary<string> = fc
  .tuple(
    whitespace,
    whitespace,
    fc.array(fc.tuple(valueText(jsonValueArb), whitespace, whitespace), { maxLength: 8 }),
    whitespace,
  )
  .map(
    ([before, open, elements, after]) =>
      `${before}[${open}${elements.map(([text, l, r]) => l + text + r).join(',')}]${after}`,
  );

const topIsArray = (text: string): boolean => /^[ \t\n\r]*\[/.test(text);

describe('JsonElementSplitter agrees with JSON.parse', () => {
  it('(a) splits any array, cut into chunks anywhere, into exactly its elements', () => {
    fc.assert(
      fc.property(arrayText, chunkingArb, (text, chunking) => {
        expect(splitChunks(chunked(text, chunking))).toEqual(JSON.parse(text));
      }),
      RUNS,
    );
  });

  it('(b) emits any other top-level value whole, at the end', () => {
    const notArray = valueText(jsonValueArb.filter((v) => !Array.isArray(v)));
    fc.assert(
      fc.property(
        whitespace,
        notArray,
        whitespace,
        chunkingArb,
        (before, body, after, chunking) => {
          const text = before + body + after;
          const splitter = new JsonElementSplitter({ maxElementBytes: LIMIT });
          for (const chunk of chunked(text, chunking)) expect(splitter.push(chunk)).toEqual([]);
          expect(splitter.end()).toEqual([JSON.parse(text)]);
        },
      ),
      RUNS,
    );
  });

  it('(c) refuses exactly the texts JSON.parse refuses, after any one-character edit', () => {
    const edit = fc.record({
      kind: fc.constantFrom('delete', 'insert', 'replace'),
      at: fc.nat(),
      char: fc.oneof(
        fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', ':', ' ', '\n', '0', '-', 'e', '.'),
        fc.constantFrom('t', 'x', '\u0000', '\u000b', '\u00a0', '\ufeff', '\ud800'),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(arrayText, edit, chunkingArb, (text, { kind, at, char }, chunking) => {
        const i = at % (text.length + 1);
        const edited =
          kind === 'insert'
            ? text.slice(0, i) + char + text.slice(i)
            : text.slice(0, i) + (kind === 'replace' ? char : '') + text.slice(i + 1);
        let parsed: unknown;
        let parseRefused = false;
        try {
          parsed = JSON.parse(edited);
        } catch {
          parseRefused = true;
        }
        let split: unknown[] | undefined;
        let splitRefused = false;
        try {
          split = splitChunks(chunked(edited, chunking));
        } catch (error) {
          expect(error).toBeInstanceOf(JsonStreamError);
          const { offset } = error as JsonStreamError;
          expect(offset).toBeGreaterThanOrEqual(0);
          expect(offset).toBeLessThanOrEqual(edited.length);
          splitRefused = true;
        }
        expect(splitRefused).toBe(parseRefused);
        if (!parseRefused) expect(split).toEqual(topIsArray(edited) ? parsed : [parsed]);
      }),
      RUNS,
    );
  });

  it('(e) measures an element exactly in UTF-8 bytes', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(valueText(jsonValueArb), chunkingArb, (element, chunking) => {
        const text = `[0,${element}]`;
        const chunks = chunked(text, chunking);
        const bytes = Math.max(1, encoder.encode(element).length);
        expect(splitChunks(chunks, bytes)).toEqual(JSON.parse(text));
        if (bytes > 1) expect(refusal(chunks, bytes - 1).offset).toBe(3);
      }),
      RUNS,
    );
  });
});

describe('JsonElementSplitter by hand', () => {
  it('reads empty arrays with whitespace anywhere', () => {
    for (const text of ['[]', ' [ ] ', '\n[\t]\r\n', '[\r\n]']) {
      for (const chunks of everyCut(text)) expect(splitChunks(chunks)).toEqual([]);
    }
  });

  it('says what was unexpected, and where', () => {
    const cases: [string, RegExp, number][] = [
      ['[1,]', /^unexpected '\]' at character 3: a value was expected$/, 3],
      ['[,1]', /^unexpected ',' at character 1: a value or '\]' was expected$/, 1],
      ['[1 2]', /^unexpected '2' at character 3: ',' or '\]' was expected$/, 3],
      ['[1\t2]', /^unexpected '2' at character 3: ',' or '\]' was expected$/, 3],
      ['[1"a"]', /^unexpected '"' at character 2: ',' or '\]' was expected$/, 2],
      ['[null{}]', /^unexpected '\{' at character 5: ',' or '\]' was expected$/, 5],
      ['[1]x', /^unexpected 'x' at character 3: nothing but whitespace may follow/, 3],
      ['[1] []', /^unexpected '\[' at character 4/, 4],
      ['[1,2', /^unexpected end of input at character 4: ',' or '\]' was expected$/, 4],
      ['[1,', /^unexpected end of input at character 3: a value was expected$/, 3],
      ['[', /^unexpected end of input at character 1: a value or '\]' was expected$/, 1],
      ['', /^unexpected end of input at character 0: a JSON value was expected$/, 0],
      ['  \n', /^unexpected end of input at character 3: a JSON value was expected$/, 3],
      ['[{"a":1}', /^unexpected end of input at character 8: ',' or '\]' was expected$/, 8],
      ['[{"a":1', /at character 7: the element starting at character 1 is incomplete$/, 7],
      ['"abc', /at character 4: the top-level value starting at character 0 is incomplete$/, 4],
      ['[1,}]', /^unexpected '}' at character 3: a value was expected$/, 3],
      ['\ufeff[]', /^unexpected U\+FEFF at character 0: a JSON value was expected$/, 0],
      ['[\u00a01]', /^unexpected U\+00A0 at character 1/, 1],
      ['[{"a" 1}]', /^invalid JSON at character 6: Expected ':' after property name$/, 6],
      ['[1, 01]', /^invalid JSON at character 5: Unexpected number$/, 5],
      ['[1, tru]', /^invalid JSON in the value starting at character 4: /, 4],
      ['{"a":}', /^invalid JSON in the value starting at character 0: /, 0],
    ];
    for (const [text, message, offset] of cases) {
      for (const chunks of everyCut(text)) {
        const error = refusal(chunks);
        expect(error.message, text).toMatch(message);
        expect(error.offset, text).toBe(offset);
        expect(() => JSON.parse(text), text).toThrow();
      }
    }
  });

  it('reads top-level values that are not arrays', () => {
    for (const text of ['""', ' "]" ', '0', '-1.5e3 ', 'true', 'null', ' {"a":[1,{}]} ', '{}']) {
      for (const chunks of everyCut(text)) expect(splitChunks(chunks)).toEqual([JSON.parse(text)]);
    }
    expect(refusal(['1 2']).message).toMatch(/^unexpected '2' at character 2/);
    expect(refusal(['{} {}']).message).toMatch(/^unexpected '\{' at character 3/);
    expect(refusal(['"a"b']).message).toMatch(/^unexpected 'b' at character 3/);
  });

  it('keeps strings whole whatever they hold, wherever the chunks are cut', () => {
    const text = String.raw`["]", ",", "[", "{", "\"", "\\", "\\\"", "a\\\\\"]b", "\u00e9\ud83d\ude00", "😀é€", {"]":"}"}, ["\\"]]`;
    const expected = JSON.parse(text) as unknown[];
    expect(expected).toHaveLength(12);
    for (const chunks of everyCut(text)) expect(splitChunks(chunks)).toEqual(expected);
  });

  it('emits each element as soon as its end is seen', () => {
    const splitter = new JsonElementSplitter({ maxElementBytes: LIMIT });
    expect(splitter.push('[{"a":1},{"b"')).toEqual([{ a: 1 }]);
    expect(splitter.push(':2}')).toEqual([{ b: 2 }]);
    expect(splitter.push(', "x\\')).toEqual([]);
    expect(splitter.push('"",12')).toEqual(['x"']);
    expect(splitter.push('3')).toEqual([]);
    expect(splitter.push(' ]')).toEqual([123]);
    expect(splitter.end()).toEqual([]);
    expect(() => splitter.push('')).toThrow(/already ended/);
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH}`, () => {
    const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
    expect(splitChunks([nested(MAX_JSON_DEPTH)])).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)));
    const error = refusal([nested(MAX_JSON_DEPTH + 1)]);
    expect(error.message).toBe(`nesting deeper than 512 at character ${MAX_JSON_DEPTH}`);
    expect(error.offset).toBe(MAX_JSON_DEPTH);

    const objects = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    expect(splitChunks([objects(MAX_JSON_DEPTH)])).toEqual([JSON.parse(objects(MAX_JSON_DEPTH))]);
    expect(refusal([objects(MAX_JSON_DEPTH + 1)]).message).toMatch(/^nesting deeper than 512/);
    // Inside an array, the array counts as one level.
    const inArray = `[1,${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}]`;
    expect(refusal(Array.from(inArray)).offset).toBe(3 + 5 * (MAX_JSON_DEPTH - 1));
  });

  it('refuses an element over the limit, counted in UTF-8 bytes', () => {
    const ok = '[1234567890, "12345678", {"a":"é"}, "€€", "😀"]';
    for (const chunks of everyCut(ok)) expect(splitChunks(chunks, 10)).toEqual(JSON.parse(ok));
    for (const chunks of everyCut(ok)) {
      expect(refusal(chunks, 9).message).toBe(
        'the element starting at character 1 is larger than the limit of 9 bytes',
      );
    }
    expect(refusal(['[1, "é"]'], 3).offset).toBe(4); // 4 bytes
    expect(refusal(['[1, "😀"]'], 5).offset).toBe(4); // 6 bytes
    expect(splitChunks(['["😀"]'], 6)).toEqual(['😀']);
    expect(refusal([' {"a":"b"}'], 8).message).toBe(
      'the top-level value starting at character 1 is larger than the limit of 8 bytes',
    );
  });

  it('refuses an oversized element before it ends, keeping memory bounded', () => {
    const splitter = new JsonElementSplitter({ maxElementBytes: 100 });
    expect(splitter.push('[1, "')).toEqual([1]);
    splitter.push('x'.repeat(60));
    expect(() => splitter.push('x'.repeat(60))).toThrow(/larger than the limit of 100 bytes/);
    // Every later call repeats the refusal.
    expect(() => splitter.push(']')).toThrow(/larger than the limit of 100 bytes/);
    expect(() => splitter.end()).toThrow(/larger than the limit of 100 bytes/);
  });

  it('refuses a limit that is not positive', () => {
    expect(() => new JsonElementSplitter({ maxElementBytes: 0 })).toThrow(RangeError);
    expect(() => new JsonElementSplitter({ maxElementBytes: Number.NaN })).toThrow(RangeError);
  });
});
