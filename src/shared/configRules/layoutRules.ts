/**
 * The rules a layout's and a section's names must meet before a change is queued (spec "Layouts
 * and sections": layout "name (string, req, max 200)", section "name (string, req, max 100)"),
 * plus the service's own as the emulator checks them (packages/emulator/src/api/layouts.ts): a
 * layout's name unique among its module's layouts, a section's among its layout's sections, both
 * case-insensitively. Pure: the form shows these words next to the control, the engine checks again.
 */
import { LAYOUT_NAME_MAX, SECTION_NAME_MAX } from '@portaldesk/portal-api/domain/limits';

export { LAYOUT_NAME_MAX, SECTION_NAME_MAX };

function nameProblem(
  what: string,
  name: string,
  max: number,
  others: readonly { id: string; name: string }[],
  exceptId: string | null,
): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return `${what}: required.`;
  const length = [...trimmed].length;
  if (length > max) return `${what}: at most ${max} characters (${length} given).`;
  if ([...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return `${what}: no control characters (tabs, line breaks).`;
  }
  const clash = others.find(
    (other) => other.id !== exceptId && other.name.trim().toLowerCase() === trimmed.toLowerCase(),
  );
  return clash ? `${what}: "${trimmed}" is already the name of another one here.` : null;
}

/** What is wrong with a layout's name among its module's layouts, or null. */
export function layoutNameProblem(
  name: string,
  layouts: readonly { id: string; name: string }[],
  exceptId: string | null = null,
): string | null {
  return nameProblem('Layout name', name, LAYOUT_NAME_MAX, layouts, exceptId);
}

/** What is wrong with a section's name among its layout's sections, or null. */
export function sectionNameProblem(
  name: string,
  sections: readonly { id: string; name: string }[],
  exceptId: string | null = null,
): string | null {
  return nameProblem('Section name', name, SECTION_NAME_MAX, sections, exceptId);
}
