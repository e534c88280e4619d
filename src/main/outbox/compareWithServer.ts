/**
 * The base-versus-server check before a PATCH (issue 7: "compare each field's base value with the
 * server's current value ... PATCH only non-conflicting fields and hold the rest as conflicts").
 * Pure. Per field:
 * - the server already holds my value: `applied` (a send whose answer was lost, or the same change
 *   made elsewhere); nothing to send;
 * - the server still holds the base: `send`;
 * - a compound value whose parts changed here and there without clashing (mergeParts): what both
 *   changes leave is sent, based on the server's value, or is `applied` when the server holds it
 *   already (a lost answer of that send);
 * - anything else: someone changed it since: `conflict`.
 */
import { sameFieldValue } from '../../shared/fieldValues/sameFieldValue';
import { mergeParts } from './mergeParts';
import { typeOf, type FieldTypes, type OpFields } from './outboxTypes';

export interface ServerComparison {
  send: string[];
  applied: string[];
  conflicts: string[];
  /** The entries to send for the fields in `send`: the operation's, or a merge's on theirs. */
  fields: OpFields;
}

export function compareWithServer(
  fields: OpFields,
  types: FieldTypes,
  serverValue: (field: string) => unknown,
): ServerComparison {
  const result: ServerComparison = { send: [], applied: [], conflicts: [], fields: {} };
  for (const [field, entry] of Object.entries(fields)) {
    const type = typeOf(types, field);
    const theirs = serverValue(field);
    if (sameFieldValue(type, theirs, entry.value)) result.applied.push(field);
    else if (sameFieldValue(type, theirs, entry.base)) {
      result.send.push(field);
      result.fields[field] = entry;
    } else {
      const merged = mergeParts(type, entry.base, entry.value, theirs);
      if (merged === undefined) result.conflicts.push(field);
      else if (sameFieldValue(type, theirs, merged)) result.applied.push(field);
      else {
        result.send.push(field);
        result.fields[field] = { value: merged, base: theirs };
      }
    }
  }
  return result;
}
