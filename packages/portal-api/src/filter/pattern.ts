/**
 * The `pattern` of a filter: criteria by 1-based index, combined with AND, OR and parentheses
 * (spec: "Combines criteria by 1-based index using AND, OR and parentheses, e.g. `(1 AND 2) OR 3`").
 *
 * Our rules where the spec is silent:
 * - AND binds tighter than OR, as in SQL and most query languages: `1 AND 2 OR 3` is
 *   `(1 AND 2) OR 3`, and `1 OR 2 AND 3` is `1 OR (2 AND 3)`.
 * - AND and OR are accepted in any letter case (`and`, `Or`): they cannot be confused with anything
 *   else, and refusing them would only make hand-written filters fail.
 * - Every criterion must appear at least once. A criterion left out of the pattern would be
 *   silently ignored, so the filter would return more records than the person asked for while
 *   still listing that criterion; that is almost always a forgotten edit, so it is refused.
 * - A criterion may appear more than once: `(1 AND 2) OR (1 AND 3)` is a legitimate way to write
 *   `1 AND (2 OR 3)`, and repeating a criterion never changes which records match.
 * - Numbers are decimal digits (leading zeros allowed); an index outside 1..criteria count is
 *   refused with the range that is allowed.
 */
import { MAX_PATTERN_DEPTH, MAX_PATTERN_LENGTH } from './limits';
import type { FilterError } from './types';

export type PatternNode =
  /** A criterion by its 1-based index in `criteria`. */
  { type: 'criterion'; index: number } | { type: 'and' | 'or'; items: PatternNode[] };

export type PatternResult = { ok: true; tree: PatternNode } | { ok: false; errors: FilterError[] };

const PATH = 'pattern';

type Token =
  | { kind: 'number'; text: string; at: number }
  | { kind: 'and' | 'or' | '(' | ')'; text: string; at: number }
  | { kind: 'end'; text: ''; at: number };

class PatternSyntaxError extends Error {}

function describe(token: Token): string {
  return token.kind === 'end' ? 'the end' : `"${token.text}" at character ${token.at}`;
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] as string;
    const at = i + 1;
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ kind: ch, text: ch, at });
      i += 1;
    } else if (/[0-9]/.test(ch)) {
      const text = /^[0-9]+/.exec(pattern.slice(i))?.[0] ?? ch;
      tokens.push({ kind: 'number', text, at });
      i += text.length;
    } else if (/[A-Za-z]/.test(ch)) {
      const text = /^[A-Za-z]+/.exec(pattern.slice(i))?.[0] ?? ch;
      const upper = text.toUpperCase();
      if (upper !== 'AND' && upper !== 'OR') {
        throw new PatternSyntaxError(
          `unknown word "${text}" at character ${at}; only AND and OR combine criteria`,
        );
      }
      tokens.push({ kind: upper === 'AND' ? 'and' : 'or', text, at });
      i += text.length;
    } else {
      const shown = String.fromCodePoint(pattern.codePointAt(i) ?? 0);
      throw new PatternSyntaxError(
        `unexpected "${shown}" at character ${at}; a pattern holds criterion numbers, AND, OR and parentheses`,
      );
    }
  }
  tokens.push({ kind: 'end', text: '', at: pattern.length + 1 });
  return tokens;
}

/** Recursive descent: or := and (OR and)*, and := primary (AND primary)*, primary := N | ( or ). */
class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): PatternNode {
    const tree = this.parseOr();
    const next = this.peek();
    if (next.kind !== 'end') {
      throw new PatternSyntaxError(
        next.kind === ')'
          ? `unexpected ")" at character ${next.at}; it closes no "("`
          : `expected AND or OR before ${describe(next)}`,
      );
    }
    return tree;
  }

  private peek(): Token {
    return this.tokens[this.position] as Token;
  }

  private take(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.position += 1;
    return token;
  }

  private parseOr(): PatternNode {
    const items = [this.parseAnd()];
    while (this.peek().kind === 'or') {
      this.take();
      items.push(this.parseAnd());
    }
    return items.length === 1 ? (items[0] as PatternNode) : { type: 'or', items };
  }

  private parseAnd(): PatternNode {
    const items = [this.parsePrimary()];
    while (this.peek().kind === 'and') {
      this.take();
      items.push(this.parsePrimary());
    }
    return items.length === 1 ? (items[0] as PatternNode) : { type: 'and', items };
  }

  private parsePrimary(): PatternNode {
    const token = this.take();
    if (token.kind === 'number') {
      return { type: 'criterion', index: Number(token.text) };
    }
    if (token.kind === '(') {
      this.depth += 1;
      if (this.depth > MAX_PATTERN_DEPTH) {
        throw new PatternSyntaxError(
          `parentheses nest deeper than ${MAX_PATTERN_DEPTH} levels at character ${token.at}`,
        );
      }
      const inner = this.parseOr();
      const close = this.take();
      if (close.kind !== ')') {
        throw new PatternSyntaxError(
          `expected ")" to close the "(" at character ${token.at}, found ${describe(close)}`,
        );
      }
      this.depth -= 1;
      return inner;
    }
    throw new PatternSyntaxError(`expected a criterion number or "(", found ${describe(token)}`);
  }
}

function criterionIndexes(tree: PatternNode, into: number[] = []): number[] {
  if (tree.type === 'criterion') into.push(tree.index);
  else for (const item of tree.items) criterionIndexes(item, into);
  return into;
}

/** Parses a pattern and checks its indexes against the number of criteria. */
export function parsePattern(pattern: string, criteriaCount: number): PatternResult {
  if (pattern.trim() === '') {
    return {
      ok: false,
      errors: [{ path: PATH, message: 'is empty; write e.g. "1" or "1 AND 2"' }],
    };
  }
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return {
      ok: false,
      errors: [
        {
          path: PATH,
          message: `is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} are allowed`,
        },
      ],
    };
  }
  let tree: PatternNode;
  try {
    tree = new Parser(tokenize(pattern)).parse();
  } catch (error) {
    if (error instanceof PatternSyntaxError) {
      return { ok: false, errors: [{ path: PATH, message: error.message }] };
    }
    throw error;
  }

  const errors: FilterError[] = [];
  const used = new Set<number>();
  const allowed = criteriaCount === 1 ? 'the only criterion is 1' : `use 1 to ${criteriaCount}`;
  for (const index of criterionIndexes(tree)) {
    if (index < 1 || index > criteriaCount) {
      if (!used.has(index)) {
        errors.push({
          path: PATH,
          message: `criterion ${index} does not exist; there ${criteriaCount === 1 ? 'is' : 'are'} ${criteriaCount} ${criteriaCount === 1 ? 'criterion' : 'criteria'} (${allowed})`,
        });
      }
    }
    used.add(index);
  }
  for (let index = 1; index <= criteriaCount; index += 1) {
    if (!used.has(index)) {
      errors.push({
        path: PATH,
        message: `criterion ${index} is not used; every criterion must appear in the pattern`,
      });
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, tree };
}

/**
 * The tree as a pattern string. A group inside the other operator is always parenthesised, even
 * where precedence would not need it (`1 OR (2 AND 3)`), so a reader never has to know the rule.
 */
export function formatPattern(tree: PatternNode): string {
  return formatGroup(tree, (index) => String(index));
}

/** Shared by formatPattern and explainFilter: renders each criterion with `leaf`. */
export function formatGroup(tree: PatternNode, leaf: (index: number) => string): string {
  if (tree.type === 'criterion') return leaf(tree.index);
  const keyword = tree.type === 'and' ? ' AND ' : ' OR ';
  return tree.items
    .map((item) =>
      item.type === 'criterion' || item.type === tree.type
        ? formatGroup(item, leaf)
        : `(${formatGroup(item, leaf)})`,
    )
    .join(keyword);
}
