/**
 * The rules a field's options must meet before a change is queued (spec "Fields and options":
 * "custom_options (array, max 1000)"; "Pick list ... max 50 options"), plus the service's own as
 * the emulator checks them (packages/emulator/src/api/options.ts): a name of 1 to 200 characters,
 * names unique in the field (case-insensitively), at most 50 options on a pick list and 100 on a
 * multi-select. Pure: the form shows these words, the engine checks again.
 */
import { CUSTOM_FIELD_TYPES } from '@portaldesk/portal-api/domain/customFieldTypes';

export const OPTION_NAME_MAX = CUSTOM_FIELD_TYPES.single_line.maxChars;

/** The most options a field of `type` may hold. */
export function maxOptionsOf(type: string): number {
  return type === 'pick_list'
    ? CUSTOM_FIELD_TYPES.pick_list.maxOptions
    : CUSTOM_FIELD_TYPES.multi_select.maxSelectable;
}

/** What is wrong with one option's name among the others (by id), or null. */
export function optionNameProblem(
  name: string,
  others: readonly { id: string; name: string }[],
  exceptId: string | null = null,
): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Option: a name is required.';
  const length = [...trimmed].length;
  if (length > OPTION_NAME_MAX) {
    return `Option: at most ${OPTION_NAME_MAX} characters (${length} given).`;
  }
  const clash = others.find(
    (other) => other.id !== exceptId && other.name.trim().toLowerCase() === trimmed.toLowerCase(),
  );
  return clash ? `Option: “${trimmed}” is already an option of this field.` : null;
}

/** What is wrong with a field's options after a change, or null: their count and their names. */
export function optionsProblem(
  type: string,
  options: readonly { id: string; name: string }[],
): string | null {
  const max = maxOptionsOf(type);
  if (options.length > max) {
    return `A ${type === 'pick_list' ? 'pick list' : 'multi-select'} holds at most ${max} options (${options.length} after this change).`;
  }
  for (const option of options) {
    const problem = optionNameProblem(option.name, options, option.id);
    if (problem) return problem;
  }
  return null;
}
