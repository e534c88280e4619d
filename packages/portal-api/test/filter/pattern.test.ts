import { describe, expect, it } from 'vitest';
import { formatPattern, parsePattern, type PatternNode } from '@portaldesk/portal-api/filter';

function tree(pattern: string, count = 9): PatternNode {
  const result = parsePattern(pattern, count);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
  return result.tree;
}

function messages(pattern: string, count = 3): string[] {
  const result = parsePattern(pattern, count);
  if (result.ok) throw new Error(`expected "${pattern}" to be refused`);
  expect(result.errors.every((e) => e.path === 'pattern')).toBe(true);
  return result.errors.map((e) => e.message);
}

describe('parsePattern', () => {
  it('reads a single criterion', () => {
    expect(tree('1', 1)).toEqual({ type: 'criterion', index: 1 });
    expect(tree('  (( 1 ))  ', 1)).toEqual({ type: 'criterion', index: 1 });
  });

  it('binds AND tighter than OR', () => {
    expect(formatPattern(tree('1 AND 2 OR 3', 3))).toBe('(1 AND 2) OR 3');
    expect(formatPattern(tree('1 OR 2 AND 3', 3))).toBe('1 OR (2 AND 3)');
    expect(formatPattern(tree('1 OR 2 AND 3 OR 4 AND 5', 5))).toBe('1 OR (2 AND 3) OR (4 AND 5)');
    expect(tree('1 OR 2 AND 3', 3)).toEqual({
      type: 'or',
      items: [
        { type: 'criterion', index: 1 },
        {
          type: 'and',
          items: [
            { type: 'criterion', index: 2 },
            { type: 'criterion', index: 3 },
          ],
        },
      ],
    });
  });

  it('lets parentheses override precedence', () => {
    expect(formatPattern(tree('(1 OR 2) AND 3', 3))).toBe('(1 OR 2) AND 3');
    expect(formatPattern(tree('1 AND (2 OR (3 AND 4))', 4))).toBe('1 AND (2 OR (3 AND 4))');
    expect(formatPattern(tree('(1 AND 2) AND 3', 3))).toBe('1 AND 2 AND 3');
  });

  it('accepts AND/OR in any letter case, any spacing, and repeated criteria', () => {
    expect(formatPattern(tree('1 and 2 Or 3', 3))).toBe('(1 AND 2) OR 3');
    expect(formatPattern(tree('(1)AND(2)', 2))).toBe('1 AND 2');
    expect(formatPattern(tree('(1 AND 2) OR (1 AND 3)', 3))).toBe('(1 AND 2) OR (1 AND 3)');
    expect(formatPattern(tree('01 AND 2', 2))).toBe('1 AND 2');
  });

  it('refuses bad tokens with their position', () => {
    expect(messages('1 && 2')).toEqual([
      'unexpected "&" at character 3; a pattern holds criterion numbers, AND, OR and parentheses',
    ]);
    expect(messages('1 AND NOT 2')).toEqual([
      'unknown word "NOT" at character 7; only AND and OR combine criteria',
    ]);
    expect(messages('1 ANDOR 2')).toEqual([
      'unknown word "ANDOR" at character 3; only AND and OR combine criteria',
    ]);
    expect(messages('1 AND -2')[0]).toMatch(/^unexpected "-" at character 7/);
    expect(messages('1 AND 2 😀')[0]).toMatch(/^unexpected "😀" at character 9/);
  });

  it('refuses malformed structure', () => {
    expect(messages('1 2 3')).toEqual(['expected AND or OR before "2" at character 3']);
    expect(messages('(1 AND 2')).toEqual([
      'expected ")" to close the "(" at character 1, found the end',
    ]);
    expect(messages('1 AND 2) OR 3')).toEqual(['unexpected ")" at character 8; it closes no "("']);
    expect(messages('AND 1')).toEqual([
      'expected a criterion number or "(", found "AND" at character 1',
    ]);
    expect(messages('1 OR OR 2')).toEqual([
      'expected a criterion number or "(", found "OR" at character 6',
    ]);
    expect(messages('()')).toEqual([
      'expected a criterion number or "(", found ")" at character 2',
    ]);
    expect(messages('   ')).toEqual(['is empty; write e.g. "1" or "1 AND 2"']);
  });

  it('refuses indexes out of range, once each, and unused criteria', () => {
    expect(messages('0 OR 1 OR 2 OR 3 OR 4 OR 4')).toEqual([
      'criterion 0 does not exist; there are 3 criteria (use 1 to 3)',
      'criterion 4 does not exist; there are 3 criteria (use 1 to 3)',
    ]);
    expect(messages('2', 1)).toEqual([
      'criterion 2 does not exist; there is 1 criterion (the only criterion is 1)',
      'criterion 1 is not used; every criterion must appear in the pattern',
    ]);
    expect(messages('1 OR 3')).toEqual([
      'criterion 2 is not used; every criterion must appear in the pattern',
    ]);
  });

  it('bounds nesting and length', () => {
    const deep = `${'('.repeat(33)}1${')'.repeat(33)}`;
    expect(messages(deep, 1)).toEqual(['parentheses nest deeper than 32 levels at character 33']);
    expect(tree(`${'('.repeat(32)}1${')'.repeat(32)}`, 1)).toEqual({ type: 'criterion', index: 1 });
    expect(messages(`1${' OR 1'.repeat(500)}`, 1)).toEqual([
      'is 2501 characters long; at most 2000 are allowed',
    ]);
  });
});
