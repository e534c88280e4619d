/**
 * The rules a module's statuses must meet before a change is queued (spec "Fields and options":
 * statuses `{id, name, color, is_closed_type, transitions[{id}]}`, sent without layout_id since
 * every layout shares them), as the emulator checks them (packages/emulator/src/api/options.ts):
 * a name of 1 to 100 characters after trimming, unique in the module case-insensitively; a colour
 * `#rrggbb`; transitions to other statuses of the module, each once, never to the status itself;
 * a status removed only when no record or status timeline uses it, when it is not the default
 * status new records start in, and when the module keeps at least one. Pure: the editor shows
 * these words next to the control, the engine checks again before queuing.
 */

/** Ours as the emulator's: a status name is as long as a section name. */
export const STATUS_NAME_MAX = 100;
/** Ours as the emulator's: a colour is `#rrggbb`. */
export const STATUS_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** A status as the rules judge it (ids: the service's, or temporary ones of statuses added here). */
export interface StatusDraft {
  id: string;
  name: string;
  color: string;
  closed: boolean;
  transitions: readonly string[];
}

export function statusNameProblem(
  name: string,
  others: readonly { id: string; name: string }[],
  exceptId: string | null = null,
): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Status: a name is required.';
  const length = [...trimmed].length;
  if (length > STATUS_NAME_MAX) {
    return `Status: at most ${STATUS_NAME_MAX} characters (${length} given).`;
  }
  const clash = others.find(
    (other) => other.id !== exceptId && other.name.trim().toLowerCase() === trimmed.toLowerCase(),
  );
  return clash ? `Status: “${trimmed}” is already a status of this module.` : null;
}

export function statusColorProblem(color: string): string | null {
  return STATUS_COLOR_PATTERN.test(color)
    ? null
    : `Colour: “${color}” is not a colour like #2a64d6 (a # and six hexadecimal digits).`;
}

/**
 * What is wrong with the statuses a status may move to, or null. `existing`: the statuses the
 * service will hold when the change goes (a status added in the same call is not among them:
 * the service checks transitions before it creates anything).
 */
export function statusTransitionsProblem(
  transitions: readonly string[],
  existing: readonly { id: string; name: string }[],
  selfId: string | null,
): string | null {
  const seen = new Set<string>();
  for (const id of transitions) {
    if (id === selfId) return 'Transitions: a status cannot lead to itself.';
    if (!existing.some((status) => status.id === id)) {
      return `Transitions: status ${id} is not a status of this module (yet).`;
    }
    if (seen.has(id)) {
      const name = existing.find((status) => status.id === id)?.name ?? id;
      return `Transitions: “${name}” is listed twice.`;
    }
    seen.add(id);
  }
  return null;
}

/** Everything wrong with one status among the module's others, or null for the first problem. */
export function statusProblem(
  status: StatusDraft,
  all: readonly { id: string; name: string }[],
  transitionTargets: readonly { id: string; name: string }[] = all,
): string | null {
  return (
    statusNameProblem(status.name, all, status.id) ??
    statusColorProblem(status.color) ??
    statusTransitionsProblem(status.transitions, transitionTargets, status.id)
  );
}

/** Why a status may not be removed, or null. `remaining`: statuses left once the removal goes. */
export function statusRemovalProblem(
  status: { name: string; isDefault: boolean; records: number; timelineUses: number },
  remaining: number,
): string | null {
  if (status.isDefault) {
    return `“${status.name}” is the default status new records start in; it cannot be removed.`;
  }
  if (status.records > 0) {
    return `“${status.name}” is the status of ${status.records.toLocaleString('en')} mirrored ${status.records === 1 ? 'record' : 'records'}; move them to another status first.`;
  }
  if (status.timelineUses > 0) {
    return `“${status.name}” is in the status history of mirrored records; the service keeps a status its history names.`;
  }
  if (remaining < 1) return 'A module keeps at least one status.';
  return null;
}
