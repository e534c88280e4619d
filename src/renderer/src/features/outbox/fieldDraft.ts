/**
 * What a field editor holds while a person edits (a draft) and what Save would do with it. Pure,
 * so every field type's round trip is tested without a DOM (issue 14):
 *
 * - a draft made from a value and never touched saves nothing;
 * - a compound value is a draft of parts (a currency's code and amount, a list's items); the
 *   parts not touched go back exactly as they were (the engine keeps them too: validateFieldValue
 *   with `current`);
 * - rounding is shown before saving: an amount with more decimals than the field shows says how
 *   it will show;
 * - text that is not a value blocks Save with a message in words; an empty box is never a clear:
 *   emptying is the Clear button (a `cleared` draft).
 */
import type { EditableField } from '../../../../shared/ipc/areas/outbox';
import { decimalPlaces, fixedDecimals } from '@portaldesk/portal-api/domain/fieldValueRules';
import { inexactDouble } from '../../../../shared/fieldValues/exactDecimal';
import { sameFieldValue } from '../../../../shared/fieldValues/sameFieldValue';
import { validateFieldValue } from '../../../../shared/fieldValues/validateFieldValue';
import { formatZonedDateTime } from '../../../../shared/fieldValues/zonedDateTime';
import { formatValue } from './outboxFormat';

/** One item of a multi-select (option name) or multi-user list (zpuid). */
export interface DraftItem {
  key: string;
  label: string;
}

export type Draft =
  | { kind: 'text'; text: string }
  | { kind: 'flag'; checked: boolean }
  /** A status id, option name or zpuid; '' is the explicit "none" of a pick list. */
  | { kind: 'choice'; choice: string }
  | { kind: 'items'; items: DraftItem[] }
  | { kind: 'currency'; code: string; amount: string }
  /** The Clear button: the field is to be emptied. */
  | { kind: 'cleared' };

export type SaveDecision =
  | { kind: 'unchanged' }
  /** Save is blocked; `message` goes next to the field. */
  | { kind: 'invalid'; message: string }
  /**
   * `input` is what `outbox.edit` gets for the field; `shows` how the value will read (a
   * currency's formatted amount); `rounding` what the field's precision does to the amount.
   */
  | {
      kind: 'ready';
      input: unknown;
      shows: string | null;
      rounding: { shows: string; rounded: string } | null;
    };

const LIST_TYPES = new Set(['multi_select', 'multi_user']);
const CHOICE_TYPES = new Set(['status', 'pick_list', 'user_pick_list']);
const FLAG_TYPES = new Set(['check_box', 'is_external']);

/** Types read from typed text; their empty box is no value. What the box must hold, in words. */
const TYPED_TEXT: Record<string, string> = {
  number: 'whole number',
  decimal: 'number',
  percentage: 'number',
  currency: 'amount',
  date: 'complete date',
  time: 'complete time',
  timestamp: 'complete date and time',
};
const NUMBER_TYPES = new Set(['number', 'decimal', 'percentage', 'currency']);
/** Numeric text as validateFieldValue reads it. */
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function zpuidOf(value: unknown): string {
  return isObject(value) && 'zpuid' in value ? String(value.zpuid) : String(value);
}

function userLabel(value: unknown): string {
  if (isObject(value) && typeof value.name === 'string' && value.name !== '') return value.name;
  return zpuidOf(value);
}

const isEmptyValue = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0);

/** The key of an item of a list value (option name, zpuid). */
export function itemKey(type: string, item: unknown): string {
  return type === 'multi_user' ? zpuidOf(item) : String(item);
}

/** What the editor shows for a field's value. */
export function draftOf(field: EditableField, value: unknown, timeZone: string): Draft {
  const type = field.type;
  if (FLAG_TYPES.has(type)) return { kind: 'flag', checked: value === true };
  if (LIST_TYPES.has(type)) {
    const items = Array.isArray(value) ? value : isEmptyValue(value) ? [] : [value];
    return {
      kind: 'items',
      items: items.map((item) => ({
        key: itemKey(type, item),
        label: type === 'multi_user' ? userLabel(item) : String(item),
      })),
    };
  }
  if (CHOICE_TYPES.has(type)) {
    if (isEmptyValue(value)) return { kind: 'choice', choice: '' };
    const id =
      type === 'status' && isObject(value) && 'id' in value
        ? String(value.id)
        : type === 'user_pick_list'
          ? zpuidOf(value)
          : String(value);
    return { kind: 'choice', choice: id };
  }
  if (type === 'currency') {
    if (isObject(value)) {
      const code = typeof value.currency_code === 'string' ? value.currency_code : '';
      const amount = value.amount;
      return {
        kind: 'currency',
        code: code || field.currencyCode,
        amount: amount === null || amount === undefined ? '' : String(amount),
      };
    }
    return {
      kind: 'currency',
      code: field.currencyCode,
      amount: isEmptyValue(value) ? '' : String(value),
    };
  }
  if (isEmptyValue(value)) return { kind: 'text', text: '' };
  if (type === 'timestamp' && typeof value === 'string') {
    const instant = Date.parse(value);
    if (!Number.isNaN(instant))
      return { kind: 'text', text: formatZonedDateTime(instant, timeZone) };
  }
  return { kind: 'text', text: typeof value === 'string' ? value : String(value) };
}

export const sameDraft = (a: Draft, b: Draft): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The draft the Clear button leaves: nothing in the box, the field to be emptied. */
export function clearedDraft(field: EditableField): Draft {
  if (LIST_TYPES.has(field.type)) return { kind: 'items', items: [] };
  if (CHOICE_TYPES.has(field.type)) return { kind: 'choice', choice: '' };
  return { kind: 'cleared' };
}

/** Whether the editor offers Clear: an optional field that holds something. */
export function mayClear(field: EditableField, value: unknown): boolean {
  if (field.mandatory || FLAG_TYPES.has(field.type)) return false;
  if (field.type === 'name' || field.type === 'status') return false;
  return !isEmptyValue(value);
}

/** "Quantity keeps 42" / "Due stays empty": what a refused draft leaves. */
function kept(field: EditableField, value: unknown): string {
  return isEmptyValue(value)
    ? `${field.label} stays empty`
    : `${field.label} keeps ${formatValue(field.type, value)}`;
}

function notANumber(field: EditableField, value: unknown, text: string): string {
  const whole = field.type === 'number';
  const noun = whole ? 'a whole number' : 'a number';
  const example = whole ? '12' : '12.5';
  const separators = /,/.test(text)
    ? ' Write it without thousands separators, with a point for decimals.'
    : '';
  return `"${text}" is not ${noun}. Nothing is saved: ${kept(field, value)}.${separators} Type ${noun} such as ${example}, or press Undo.`;
}

function nothingEntered(field: EditableField, value: unknown): string {
  const noun = TYPED_TEXT[field.type] ?? 'value';
  const way = mayClear(field, value)
    ? 'or press Clear to empty the field'
    : field.mandatory
      ? 'the field is required'
      : 'or press Undo';
  return `No ${noun} is entered. Nothing is saved: ${kept(field, value)}. Enter a ${noun}, ${way}.`;
}

/** Checked text of an amount or number box, or the message that blocks Save. */
function numberText(field: EditableField, value: unknown, text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return nothingEntered(field, value);
  if (!NUMERIC.test(trimmed)) return notANumber(field, value, text);
  const n = Number(trimmed);
  // 1e400 would be sent as null (a clear), 1e-400 as 0: neither is what was typed.
  if (!Number.isFinite(n) || (n === 0 && /[1-9]/.test(trimmed.replace(/[eE].*$/, '')))) {
    return `"${text}" is ${Number.isFinite(n) ? 'too small' : 'too large'} a number to keep. Nothing is saved: ${kept(field, value)}. Type the number in full, such as 12.5, or press Undo.`;
  }
  // More digits than a double keeps: sending it would change what was typed.
  const double = inexactDouble(trimmed);
  if (double !== null) {
    return `"${text}" has more digits than PortalDesk can keep exactly: it would be sent as ${String(double)}. Nothing is saved: ${kept(field, value)}. Type at most 15 significant digits, or press Undo.`;
  }
  return null;
}

/** The input for `outbox.edit`, built from the draft and, for the parts not touched, the value. */
function inputOf(
  field: EditableField,
  value: unknown,
  draft: Draft,
  initial: Draft,
): { input: unknown } | { message: string } {
  switch (draft.kind) {
    case 'cleared':
      return { input: null };
    case 'flag':
      return { input: draft.checked };
    case 'choice':
      // The "—" of a pick list is an explicit choice of none.
      return { input: draft.choice === '' ? null : draft.choice };
    case 'items': {
      // Items held now go back as they are (byte for byte); new ones by their key.
      const held = Array.isArray(value) ? value : [];
      const input = draft.items.map(
        (item) => held.find((h) => itemKey(field.type, h) === item.key) ?? item.key,
      );
      return { input };
    }
    case 'currency': {
      const before = initial.kind === 'currency' ? initial : null;
      const current = isObject(value) ? value : null;
      const amountTouched = before === null || draft.amount !== before.amount || !current;
      const codeTouched = before === null || draft.code !== before.code || !current;
      if (codeTouched && draft.code.trim() === '') {
        return {
          message: `No currency code is entered. Nothing is saved: ${kept(field, value)}. Enter a code such as ${field.currencyCode}, or press Undo.`,
        };
      }
      if (amountTouched) {
        const problem = numberText(field, value, draft.amount);
        if (problem) return { message: problem };
      }
      return {
        input: {
          currency_code: codeTouched ? draft.code.trim() : current?.currency_code,
          amount: amountTouched ? Number(draft.amount.trim()) : current?.amount,
        },
      };
    }
    case 'text': {
      const typed = TYPED_TEXT[field.type];
      if (typed !== undefined && draft.text.trim() === '') {
        return { message: nothingEntered(field, value) };
      }
      if (NUMBER_TYPES.has(field.type)) {
        const problem = numberText(field, value, draft.text);
        if (problem) return { message: problem };
      }
      return { input: draft.text };
    }
  }
}

/** What Save would do with `draft` for a field now holding `value`. */
export function decideSave(
  field: EditableField,
  value: unknown,
  draft: Draft,
  timeZone: string,
): SaveDecision {
  const initial = draftOf(field, value, timeZone);
  if (sameDraft(draft, initial)) return { kind: 'unchanged' };
  if (draft.kind === 'cleared' && isEmptyValue(value)) return { kind: 'unchanged' };
  const built = inputOf(field, value, draft, initial);
  if ('message' in built) return { kind: 'invalid', message: built.message };
  const check = validateFieldValue(field, built.input, { timeZone, current: value });
  if (!check.ok) {
    return {
      kind: 'invalid',
      message: `Not saved: ${check.rule} ${kept(field, value)}; correct the value, or press Undo.`,
    };
  }
  // Typed differently but the same value (42.0 for 42): nothing to queue.
  if (sameFieldValue(field.type, check.value, value)) return { kind: 'unchanged' };
  let shows: string | null = null;
  let rounding: { shows: string; rounded: string } | null = null;
  if (field.type === 'currency' && isObject(check.value)) {
    const amount = Number(check.value.amount);
    shows = String(check.value.formatted_amount);
    if (decimalPlaces(amount) > field.precision) {
      rounding = { shows, rounded: fixedDecimals(amount, field.precision) };
    }
  }
  return { kind: 'ready', input: check.value, shows, rounding };
}
