import { describe, expect, it } from 'vitest';
import { parseNamedQueries, requireQueries } from '../../../src/main/store/sqlFile';

describe('named .sql files', () => {
  it('split statements by their -- name: headers', () => {
    const text = '-- a comment\n\n-- name: one\nSELECT 1;\n\n-- name: two\r\nSELECT\n  2;\n';
    expect(parseNamedQueries(text)).toEqual({ one: 'SELECT 1;', two: 'SELECT\n  2;' });
  });

  it('refuse duplicates, empty queries and SQL without a name', () => {
    expect(() => parseNamedQueries('-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;')).toThrow(
      /defined twice/,
    );
    expect(() => parseNamedQueries('-- name: a\n\n-- name: b\nSELECT 1;')).toThrow(/"a" is empty/);
    expect(() => parseNamedQueries('SELECT 1;\n-- name: a\nSELECT 2;')).toThrow(/before the first/);
  });

  it('fail at load time when a required query is missing', () => {
    expect(() => requireQueries({ a: 'SELECT 1' }, ['a', 'b'], 'x.sql')).toThrow(
      'x.sql: no query named "b".',
    );
  });
});
