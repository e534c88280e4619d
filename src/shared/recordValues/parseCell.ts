/**
 * One cell of an imported file read as a value of a field: the inverse of the cell an export "as
 * shown" writes (cellText.ts), checked by the editor's own rules (validateFieldValue). Users by
 * their names or emails, options by their names, amounts with their code, dates and times as the portal's zone shows
 * them, Yes/No for check boxes, several items joined by ", "; a CSV's formula guard undone. A
 * cell that still shows what the record holds is "same": nothing the user did not change is
 * rewritten, even where the shown text is coarser than the value (an instant's seconds, an
 * amount's third decimal). An empty cell empties the field; a spreadsheet's error or formula
 * without result fails (SheetCell). Pure.
 */
import { restoreDefused } from '../csv/csvField';
import { sameFieldValue } from '../fieldValues/sameFieldValue';
import { validateFieldValue } from '../fieldValues/validateFieldValue';
import { wallClockShows } from '../fieldValues/zonedDateTime';
import type { EditableField } from '../ipc/areas/outbox';
import { valueCell } from './cellText';
import { sheetText } from './xmlText';
import type { ValueContext } from './describeValue';
import {
  readShownAmount,
  readShownDate,
  readShownInstant,
  readShownNumber,
  readShownPercentage,
} from './readShownText';

/**
 * A spreadsheet's cell that is more than a value: a number its format shows as a percentage
 * (0.15 shown as 15%); or one that holds no value to import: an error (#N/A, #DIV/0!: a formula
 * failed, or the error was typed), a formula saved without its result (openpyxl and other
 * libraries write formulas only; a spreadsheet calculates them when it opens the file, the import
 * does not).
 */
export type SheetCell =
  | { kind: 'percent'; value: number }
  | { kind: 'error'; error: string }
  | { kind: 'formula without result'; formula: string }
  /**
   * A cell a merge covers outside the merge's first column (xlsx/mergedCells.ts): the sheet shows
   * the merge's `value` across several columns, so which field it is meant for is not known.
   */
  | { kind: 'merged'; range: string; value: ImportCell };

/**
 * The number a percentage-formatted cell shows (0.15 → 15), shifted in decimal rather than
 * multiplied (0.07 × 100 is 7.000000000000001).
 */
export function shownPercent(fraction: number): number {
  const [digits, exponent = '0'] = String(fraction).split('e');
  return Number(`${digits}e${Number(exponent) + 2}`);
}

/** Fields that take the number a percentage-formatted cell shows; the rest take its text ("15%"). */
const SHOWN_NUMBER_TYPES = new Set(['number', 'decimal', 'percentage']);

/** A cell as a file holds it: CSV cells are text; XLSX ones may be typed, or a SheetCell. */
export type ImportCell = string | number | boolean | null | SheetCell;

/** Formula text quoted in a reason at most. */
const FORMULA_SHOWN_CHARS = 60;

/**
 * Why a SheetCell fails its row. Never read as an empty cell: on update that would empty the
 * field (an error renamed a record to "#N/A" before, a formula without result emptied it).
 */
function sheetCellRule(
  field: EditableField,
  cell: Exclude<SheetCell, { kind: 'percent' }>,
): string {
  const redo = 'Nothing of this row is queued';
  if (cell.kind === 'merged') {
    return `${field.label} lies under the merged cells ${cell.range}, whose one value is shown across several columns, so which field it is meant for is unclear. ${redo}; unmerge those cells, put each field's value in its own column, save the file and import it again.`;
  }
  if (cell.kind === 'error') {
    return `${field.label} holds the spreadsheet error ${cell.error}, not a value: its formula failed or the error was typed. ${redo}; correct the cell in the spreadsheet (clear it to empty the field), save the file and import it again.`;
  }
  const formula =
    cell.formula.length > FORMULA_SHOWN_CHARS
      ? `${cell.formula.slice(0, FORMULA_SHOWN_CHARS)}…`
      : cell.formula;
  return `${field.label} is a formula with no saved result${formula === '' ? '' : ` (=${formula})`}: the program that wrote the file stored the formula but not its value, and the import does not calculate. ${redo}; open and save the file in a spreadsheet so its results are stored, and import it again.`;
}

export interface CellReading {
  context: ValueContext;
  /** The file is a CSV whose text cells went through the formula guard (defuseFormula). */
  defused: boolean;
  /**
   * The file is an XLSX: its text holds no character XML cannot (xmlText.ts), so a record's
   * text holding one (a vertical tab pasted from Word) is compared as a sheet can hold it.
   */
  xml?: boolean;
}

export type ParsedCell =
  { kind: 'same' } | { kind: 'value'; value: unknown } | { kind: 'fail'; rule: string };

const NUMERIC_TYPES = new Set(['number', 'decimal', 'percentage', 'currency']);

/**
 * `text` split at ", " into items each of which is one of `names` (names may hold ", "
 * themselves: the split that makes known names wins, the last item the longest); null when no
 * split does. The cell comes from a file anyone may send: an item is never longer than the name
 * with the most pieces, so only that many cuts are tried before each piece, and each end keeps
 * where its item starts, not a copy of the items before it (trying every cut and copying made a
 * 6,000-character cell of "a, a, …" hold the engine for 37 seconds).
 */
export function splitItems(text: string, names: ReadonlySet<string>): string[] | null {
  const pieces = text.split(', ');
  let longest = 0;
  for (const name of names) longest = Math.max(longest, name.split(', ').length);
  // startOf[end]: where the item ending before pieces[end] starts, in a split of
  // pieces[0..end) into known names; -1 where none splits so. startOf[0] is the empty split.
  const startOf = new Int32Array(pieces.length + 1).fill(-1);
  startOf[0] = 0;
  for (let end = 1; end <= pieces.length; end++) {
    for (let start = Math.max(0, end - longest); start < end; start++) {
      if (startOf[start] === -1) continue;
      if (names.has(pieces.slice(start, end).join(', '))) {
        startOf[end] = start;
        break;
      }
    }
  }
  if (startOf[pieces.length] === -1) return null;
  const items: string[] = [];
  for (let end = pieces.length; end > 0; end = startOf[end]!) {
    items.push(pieces.slice(startOf[end], end).join(', '));
  }
  return items.reverse();
}

function userName(user: unknown): string | null {
  if (typeof user !== 'object' || user === null) return null;
  const name = (user as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : null;
}

function zpuidOf(user: unknown): string | null {
  if (typeof user !== 'object' || user === null) return null;
  const zpuid = (user as { zpuid?: unknown }).zpuid;
  return typeof zpuid === 'string' ? zpuid : null;
}

/**
 * The users a cell may name: by shown name, the field's and those the field holds now; by email
 * (any case), the field's whose email the mirror knows. A name may be shared; an email is one
 * person's, the way a spreadsheet names people without doubt.
 */
interface KnownUsers {
  byName: Map<string, string[]>;
  byEmail: Map<string, string[]>;
  emailOf: Map<string, string>;
}

function knownUsers(field: EditableField, current: unknown): KnownUsers {
  const known: KnownUsers = { byName: new Map(), byEmail: new Map(), emailOf: new Map() };
  const add = (map: Map<string, string[]>, key: string, zpuid: string) => {
    const ids = map.get(key) ?? [];
    if (!ids.includes(zpuid)) ids.push(zpuid);
    map.set(key, ids);
  };
  const addUser = (name: string | null, zpuid: string | null) => {
    if (zpuid !== null) add(known.byName, name ?? `User ${zpuid}`, zpuid);
  };
  for (const held of Array.isArray(current) ? current : [current]) {
    addUser(userName(held), zpuidOf(held));
  }
  for (const user of field.users) {
    addUser(user.name, user.zpuid);
    if (user.email) {
      add(known.byEmail, user.email.toLowerCase(), user.zpuid);
      known.emailOf.set(user.zpuid, user.email);
    }
  }
  return known;
}

type Reading = { ok: true; input: unknown } | { ok: false; rule: string };

function user(name: string, known: KnownUsers): Reading {
  const ids =
    known.byName.get(name) ??
    known.byName.get(`User ${name}`) ??
    known.byEmail.get(name.toLowerCase());
  if (ids === undefined) {
    // A zpuid written as it is (`User 123` is how a user without a name is shown).
    const id = /^(?:User )?(\d{1,20})$/.exec(name)?.[1];
    return id === undefined
      ? { ok: false, rule: `no user of this portal is named "${name}" or has that email.` }
      : { ok: true, input: { zpuid: id } };
  }
  if (ids.length > 1) {
    return {
      ok: false,
      rule: `${ids.length} users are named "${name}": write the one meant by its email or its id (${ids.map((id) => known.emailOf.get(id) ?? id).join(', ')}).`,
    };
  }
  return { ok: true, input: { zpuid: ids[0] } };
}

const YES = new Set(['yes', 'true', '1', '✓']);
const NO = new Set(['no', 'false', '0', '✗']);

/** The editor's input for `text` (a cell, the guard undone) of `field`, or why there is none. */
function readInput(
  field: EditableField,
  cell: string | number | boolean,
  current: unknown,
  context: ValueContext,
): Reading {
  const text = typeof cell === 'string' ? cell : String(cell);
  const unread = (what: string): Reading => ({
    ok: false,
    rule: `"${text}" is not ${what}.`,
  });
  switch (field.type) {
    case 'check_box':
    case 'is_external': {
      if (typeof cell === 'boolean') return { ok: true, input: cell };
      const word = text.trim().toLowerCase();
      if (YES.has(word)) return { ok: true, input: true };
      if (NO.has(word)) return { ok: true, input: false };
      return unread('Yes or No');
    }
    case 'number':
    case 'decimal': {
      if (typeof cell === 'number') return { ok: true, input: cell };
      const n = readShownNumber(text, context);
      return n === null ? unread('a number') : { ok: true, input: n };
    }
    case 'percentage': {
      if (typeof cell === 'number') return { ok: true, input: cell };
      const n = readShownPercentage(text, context);
      return n === null ? unread('a percentage') : { ok: true, input: n };
    }
    case 'currency': {
      if (typeof cell === 'number') return { ok: true, input: cell };
      const amount = readShownAmount(text, context);
      if (amount === null) return unread('an amount (such as USD 12.50)');
      return {
        ok: true,
        input:
          amount.currencyCode === null
            ? amount.amount
            : { amount: amount.amount, currency_code: amount.currencyCode },
      };
    }
    case 'date': {
      const date = readShownDate(text, context);
      return date === null
        ? unread('a date as the table shows dates (its year in four digits) or written yyyy-MM-dd')
        : { ok: true, input: date };
    }
    case 'timestamp': {
      const instant = readShownInstant(text, context);
      return instant === null
        ? unread(
            'a date and time as the table shows them (the year in four digits) or written yyyy-MM-ddTHH:mm',
          )
        : { ok: true, input: instant };
    }
    case 'multi_select': {
      const held = Array.isArray(current) ? current.filter((c) => typeof c === 'string') : [];
      const names = new Set<string>([...field.options.map((o) => o.name), ...held]);
      // An unknown name stays an item of its own: the rules then name it in their reason.
      return { ok: true, input: splitItems(text, names) ?? text.split(', ') };
    }
    case 'user_pick_list':
    case 'owner':
      return user(text.trim(), knownUsers(field, current));
    case 'multi_user': {
      const known = knownUsers(field, current);
      // Items are names (which may hold ", ") or emails (which cannot), as written.
      const items = new Set(known.byName.keys());
      for (const piece of text.split(', ')) {
        if (known.byEmail.has(piece.trim().toLowerCase())) items.add(piece);
      }
      const names = splitItems(text, items) ?? text.split(', ');
      const users: unknown[] = [];
      for (const name of names) {
        const one = user(name.trim(), known);
        if (!one.ok) return one;
        users.push(one.input);
      }
      return { ok: true, input: users };
    }
    default:
      return { ok: true, input: text };
  }
}

const LINE_BREAK = /\r\n?/g;

/** `text` with each CR LF and lone CR written as LF. */
function lineBreaksAsLf(text: string): string {
  return text.includes('\r') ? text.replace(LINE_BREAK, '\n') : text;
}

/**
 * The cell read as a value of `field` in the API's shape (`value`), "same" when it shows what the
 * field holds now (`current`; undefined for a new record), or the rule it breaks.
 */
export function parseCell(
  field: EditableField,
  cell: ImportCell,
  reading: CellReading,
  current?: unknown,
): ParsedCell {
  const { context } = reading;
  if (typeof cell === 'object' && cell !== null) {
    if (cell.kind !== 'percent') return { kind: 'fail', rule: sheetCellRule(field, cell) };
    // What the sheet shows is what the user means: 15% is 15 in a percentage field (as a CSV's
    // "15 %" is), and in a number field too; elsewhere the text it shows.
    const shown = shownPercent(cell.value);
    cell = SHOWN_NUMBER_TYPES.has(field.type) ? shown : `${shown}%`;
  }
  if (current !== undefined) {
    const cellShown = valueCell(field.type, current, {
      values: 'shown',
      context,
      defuse: reading.defused,
    });
    // As the file could hold it: the export wrote the record's text so, and a round trip of an
    // untouched cell rewrote the record's vertical tabs and other controls as U+FFFD, and cut a
    // text longer than a cell holds.
    const shown =
      reading.xml === true && typeof cellShown === 'string' ? sheetText(cellShown) : cellShown;
    if (cell === shown || (cell === null && shown === '')) return { kind: 'same' };
    // Line endings are not something a spreadsheet shows: an XLSX reads a CR LF back as LF
    // (XML's own rule) and editors rewrite them, so a text that differs in them alone is the
    // record's text, not a change to send.
    if (
      typeof cell === 'string' &&
      typeof shown === 'string' &&
      lineBreaksAsLf(cell) === lineBreaksAsLf(shown)
    ) {
      return { kind: 'same' };
    }
  }
  let input: unknown;
  if (cell === null || cell === '') input = null;
  else {
    const given =
      typeof cell === 'string' && reading.defused && !NUMERIC_TYPES.has(field.type)
        ? restoreDefused(cell)
        : cell;
    const read = readInput(field, given, current, context);
    if (!read.ok) return { kind: 'fail', rule: read.rule };
    input = read.input;
    // A time stamp shown to the minute or the second (the table's minutes, a spreadsheet's
    // format) still shows the record's: rewriting its seconds to zero is a change nobody made.
    if (
      field.type === 'timestamp' &&
      typeof input === 'string' &&
      typeof current === 'string' &&
      wallClockShows(input, Date.parse(current), context.timeZone)
    ) {
      return { kind: 'same' };
    }
  }
  const check = validateFieldValue(field, input, {
    timeZone: context.timeZone,
    ...(current === undefined ? {} : { current }),
  });
  if (!check.ok) return { kind: 'fail', rule: check.rule };
  if (current !== undefined && sameFieldValue(field.type, check.value, current)) {
    return { kind: 'same' };
  }
  return { kind: 'value', value: check.value };
}
