/**
 * The spec's position object (`before_id, after_id, exact_position (numeric), known_position
 * (first or last)`): where a section, a field in a section, an option or a status goes among its
 * siblings. Ours: at most one of the four; `exact_position` is 1-based and past the end means last.
 */
import { apiErrors } from '../http/apiError';
import { parseId } from '../api/common';
import { POSITION_MAX_CHARS } from './limits';

export type Position =
  | { kind: 'before'; id: number }
  | { kind: 'after'; id: number }
  | { kind: 'exact'; index: number }
  | { kind: 'first' }
  | { kind: 'last' };

/** Reads a position object; undefined when absent (the caller keeps or appends). */
export function parsePosition(value: unknown, name = 'position'): Position | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw apiErrors.invalidParameter(`${name} must be an object.`);
  }
  if (JSON.stringify(value).length > POSITION_MAX_CHARS) {
    throw apiErrors.invalidParameter(`${name} is longer than ${POSITION_MAX_CHARS} characters.`);
  }
  const object = value as Record<string, unknown>;
  const given = ['before_id', 'after_id', 'exact_position', 'known_position'].filter(
    (key) => object[key] !== undefined && object[key] !== null,
  );
  if (given.length > 1) {
    throw apiErrors.invalidParameter(
      `${name} takes one of before_id, after_id, exact_position, known_position, not ${given.join(' and ')}.`,
    );
  }
  if (object.before_id !== undefined && object.before_id !== null)
    return { kind: 'before', id: parseId(object.before_id, `${name}.before_id`) };
  if (object.after_id !== undefined && object.after_id !== null)
    return { kind: 'after', id: parseId(object.after_id, `${name}.after_id`) };
  if (object.exact_position !== undefined && object.exact_position !== null) {
    const index = Number(object.exact_position);
    const numeric =
      typeof object.exact_position === 'number' ||
      (typeof object.exact_position === 'string' && /^\d+$/.test(object.exact_position));
    if (!numeric || !Number.isInteger(index) || index < 1) {
      throw apiErrors.invalidParameter(`${name}.exact_position must be a whole number from 1.`);
    }
    return { kind: 'exact', index };
  }
  if (object.known_position !== undefined && object.known_position !== null) {
    if (object.known_position !== 'first' && object.known_position !== 'last') {
      throw apiErrors.invalidParameter(`${name}.known_position must be first or last.`);
    }
    return { kind: object.known_position };
  }
  return undefined;
}

/**
 * The siblings' new order once `moving` (in their given order) are placed at `position`; the
 * moving ids may or may not be among `siblings` already. Throws when before_id/after_id is not a
 * sibling (or is itself moving).
 */
export function arrange(
  siblings: readonly number[],
  moving: readonly number[],
  position: Position | undefined,
  name = 'position',
): number[] {
  const movingSet = new Set(moving);
  const rest = siblings.filter((id) => !movingSet.has(id));
  let at = rest.length;
  if (position?.kind === 'first') at = 0;
  else if (position?.kind === 'exact') at = Math.min(position.index - 1, rest.length);
  else if (position?.kind === 'before' || position?.kind === 'after') {
    const index = rest.indexOf(position.id);
    if (index === -1) {
      throw apiErrors.invalidParameter(
        `${name}.${position.kind}_id ${position.id} is not one of the items it is placed among.`,
      );
    }
    at = position.kind === 'before' ? index : index + 1;
  }
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}
