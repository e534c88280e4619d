/**
 * What a cell's number format makes of its number, as far as the import cares: a number, a
 * percentage (0.15 shown as 15%), a date, a date and time, a time of day, or an elapsed time
 * (`[h]:mm`: 1.5 shown as 36:00, a duration, no clock's time). A spreadsheet stores all of them
 * as one number; only the format says which the user typed and sees, and to which unit. Pure.
 */
export type NumberFormatKind = 'number' | 'percent' | 'date' | 'date-time' | 'time' | 'elapsed';

/** A format as the import reads it: its kind, and the smallest part of a time it shows. */
export interface NumberFormat {
  kind: NumberFormatKind;
  /** Shows seconds (`ss`); `fraction`: digits of a second shown after them (`ss.000`: 3). */
  seconds: boolean;
  fraction: number;
  /** An elapsed time's counted unit (`[h]`, `[m]`, `[s]`); null for any other kind. */
  elapsed: 'h' | 'm' | 's' | null;
}

const plain = (kind: NumberFormatKind): NumberFormat => ({
  kind,
  seconds: false,
  fraction: 0,
  elapsed: null,
});

/**
 * The formats every workbook knows by number without writing them down (ECMA-376 Part 1,
 * 18.8.30 numFmt): the ones that are not plain numbers. 27-36 and 50-58 are the East Asian
 * locales' dates (their codes depend on the locale Excel runs in; 32 and 33 are times in all of
 * them); 59-81 the Thai ones.
 */
const BUILT_IN: ReadonlyMap<number, NumberFormatKind> = new Map([
  // The times (18-22, 32, 33, 45-47) are in BUILT_IN_TIMES, read by their codes.
  [9, 'percent'],
  [10, 'percent'],
  [14, 'date'],
  [15, 'date'],
  [16, 'date'],
  [17, 'date'],
  ...[27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58].map(
    (id) => [id, 'date'] as const,
  ),
  [67, 'percent'],
  [68, 'percent'],
  [81, 'date'],
]);

/**
 * The built-in time formats' codes (ECMA-376 18.8.30), read as written ones are: which show
 * seconds, and 46, an elapsed time.
 */
const BUILT_IN_TIMES: ReadonlyMap<number, string> = new Map([
  [18, 'h:mm AM/PM'],
  [19, 'h:mm:ss AM/PM'],
  [20, 'h:mm'],
  [21, 'h:mm:ss'],
  [22, 'm/d/yyyy h:mm'],
  // The East Asian locales' times: h"時"mm"分" and h"時"mm"分"ss"秒" in Japanese.
  [32, 'h:mm'],
  [33, 'h:mm:ss'],
  [45, 'mm:ss'],
  [46, '[h]:mm:ss'],
  [47, 'mmss.0'],
]);

/** A format by its number, when the workbook does not write its code. */
export function builtInFormat(id: number): NumberFormat {
  const code = BUILT_IN_TIMES.get(id);
  return code === undefined ? plain(BUILT_IN.get(id) ?? 'number') : numberFormat(code);
}

export function builtInFormatKind(id: number): NumberFormatKind {
  return builtInFormat(id).kind;
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
      // An elapsed unit keeps its brackets: [h] counts hours past 24, h is the clock's hour.
      if (/^(h+|m+|s+)$/i.test(inside)) out += `[${inside}]`;
      i = end === -1 ? code.length : end;
    } else out += c;
  }
  return out.toLowerCase();
}

/** A format by its code (`yyyy-mm-dd hh:mm`, `0.0%`, `[$-411]ge.m.d`, `[h]:mm`, `General`). */
export function numberFormat(code: string): NumberFormat {
  const shown = tokens(code)
    .replace(/general/g, '')
    // Scientific notation (0.00E+00) is a number, not an era year.
    .replace(/e[+-]/g, '');
  const elapsed = /\[(h|m|s)/.exec(shown)?.[1] as NumberFormat['elapsed'] | undefined;
  const time = elapsed !== undefined || /[hs]/.test(shown) || /am\/pm|a\/p/.test(shown);
  // `m` is the month unless hours or seconds make it the minutes; e and g are Japanese eras,
  // b the Buddhist year.
  const date = /[ydegb]/.test(shown) || (shown.includes('m') && !time);
  const seconds = shown.includes('s');
  // `ss.00`: hundredths of a second (a `.0` elsewhere is a number's decimal).
  const fraction = seconds ? (/s\]?\.(0+)/.exec(shown)?.[1]?.length ?? 0) : 0;
  const kind: NumberFormatKind = date
    ? time
      ? 'date-time'
      : 'date'
    : elapsed !== undefined
      ? 'elapsed'
      : time
        ? 'time'
        : shown.includes('%')
          ? 'percent'
          : 'number';
  if (kind === 'number' || kind === 'percent') return plain(kind);
  return { kind, seconds, fraction, elapsed: kind === 'elapsed' ? elapsed! : null };
}

export function numberFormatKind(code: string): NumberFormatKind {
  return numberFormat(code).kind;
}
