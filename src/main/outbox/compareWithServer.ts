/**
 * The base-versus-server check before a PATCH (issue 7: "compare each field's base value with the
 * server's current value ... PATCH only non-conflicting fields and hold the rest as conflicts").
 * Pure. Per field:
 * - the server already holds my value: `applied` (a send whose answer was lost, or the same change
 *   made elsewhere); nothing to send;
 * - the server still holds the base: `send`;
 * - anything else: someone changed it since: `conflict`.
 */
import { sameFieldValue } from '../../shared/fieldValues/sameFieldValue';
import { typeOf, type FieldTypes, type OpFields } from './outboxTypes';

export interface ServerComparison {
  send: string[];
  applied: string[];
  conflicts: string[];
}

export function compareWithServer(
  fields: OpFields,
  types: FieldTypes,
  serverValue: (field: string) => unknown,
): ServerComparison {
  const result: ServerComparison = { send: [], applied: [], conflicts: [] };
  for (const [field, entry] of Object.entries(fields)) {
    const type = typeOf(types, field);
    const theirs = serverValue(field);
    if (sameFieldValue(type, theirs, entry.value)) result.applied.push(field);
    else if (sameFieldValue(type, theirs, entry.base)) result.send.push(field);
    else result.conflicts.push(field);
  }
  return result;
}
