/**
 * What a cell's number format makes of its number, as far as the import cares: a number, a
 * percentage (0.15 shown as 15%), a date, a date and time, or a time of day. A spreadsheet
 * stores all of them as one number; only the format says which the user typed and sees. Pure.
 */
export type NumberFormatKind = 'number' | 'percent' | 'date' | 'date-time' | 'time';

/**
 * The formats every workbook knows by number without writing them down (ECMA-376 Part 1,
 * 18.8.30 numFmt): the ones that are not plain numbers. 27-36 and 50-58 are the East Asian
 * locales' dates (their codes depend on the locale Excel runs in; 32 and 33 are times in all of
 * them); 59-81 the Thai ones.
 */
const BUILT_IN: ReadonlyMap<number, NumberFormatKind> = new Map([
  [9, 'percent'],
  [10, 'percent'],
  [14, 'date'],
  [15, 'date'],
  [16, 'date'],
  [17, 'date'],
  [18, 'time'],
  [19, 'time'],
  [20, 'time'],
  [21, 'time'],
  [22, 'date-time'],
  ...[27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58].map(
    (id) => [id, 'date'] as const,
  ),
  [32, 'time'],
  [33, 'time'],
  [45, 'time'],
  [46, 'time'],
  [47, 'time'],
  [67, 'percent'],
  [68, 'percent'],
  [81, 'date'],
]);

/** A format by its number, when the workbook does not write its code. */
export function builtInFormatKind(id: number): NumberFormatKind {
  return BUILT_IN.get(id) ?? 'number';
}

/**
 * The first section of a format code (the one for positive numbers) with what it shows as
 * written left out: quoted text, escaped characters, the spaces `_x` and fills `*x` make, and
 * bracketed parts (colours, conditions, locales such as [$-411]) but elapsed times ([h], [mm]).
 */
function tokens(code: string): string {
  let out = '';
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === ';') break;
    if (c === '"') {
      const end = code.indexOf('"', i + 1);
      i = end === -1 ? code.length : end;
    } else if (c === '\\' || c === '_' || c === '*') i++;
    else if (c === '[') {
      const end = code.indexOf(']', i + 1);
      const inside = code.slice(i + 1, end === -1 ? code.length : end);
      if (/^(h+|m+|s+)$/i.test(inside)) out += inside;
      i = end === -1 ? code.length : end;
    } else out += c;
  }
  return out.toLowerCase();
}

/** A format by its code (`yyyy-mm-dd hh:mm`, `0.0%`, `[$-411]ge.m.d`, `General`). */
export function numberFormatKind(code: string): NumberFormatKind {
  const shown = tokens(code)
    .replace(/general/g, '')
    // Scientific notation (0.00E+00) is a number, not an era year.
    .replace(/e[+-]/g, '');
  const time = /[hs]/.test(shown) || /am\/pm|a\/p/.test(shown);
  // `m` is the month unless hours or seconds make it the minutes; e and g are Japanese eras,
  // b the Buddhist year.
  const date = /[ydegb]/.test(shown) || (shown.includes('m') && !time);
  if (date) return time ? 'date-time' : 'date';
  if (time) return 'time';
  return shown.includes('%') ? 'percent' : 'number';
}
