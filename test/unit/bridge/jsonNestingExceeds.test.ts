import { describe, expect, it } from 'vitest';
import { jsonNestingExceeds } from '../../../src/main/http/jsonNestingExceeds';

describe('jsonNestingExceeds', () => {
  it('counts arrays and objects opened inside each other', () => {
    expect(jsonNestingExceeds('[[1]]', 2)).toBe(false);
    expect(jsonNestingExceeds('[[[1]]]', 2)).toBe(true);
    expect(jsonNestingExceeds('{"a":{"b":[]}}', 2)).toBe(true);
    expect(jsonNestingExceeds('[[],[],[]]', 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestingExceeds('["[[[[", "\\"[[[[", {"k[[": "]]]{{{"}]', 2)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ a: '\\', b: [[1]] }), 2)).toBe(true);
  });
});
