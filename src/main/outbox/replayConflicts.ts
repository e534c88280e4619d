/**
 * The conflicts a replay finds, as the Outbox shows them for the user to resolve
 * (resolveConflict.ts): per field mine, theirs and the base my change was made on. Pure.
 */
import type { OpConflict } from '../../shared/ipc/areas/outbox';
import type { EditCatalog } from './editCatalog';
import { mineOverTheirs } from './mergeParts';
import { typeOf, type OpFields, type OutboxOp } from './outboxTypes';

/** Types whose conflict the user may settle with an edited text of their own. */
const EDITABLE_TYPES = ['name', 'description', 'single_line', 'multi_line'];

/** Fields of a create or update: changed on the service (`fields`), or the record gone. */
export function fieldsConflict(
  kind: OpConflict['kind'],
  fields: OpFields,
  catalog: EditCatalog,
  theirs: (field: string) => unknown,
  foundAt: string,
): OpConflict {
  return {
    kind,
    foundAt,
    fields: Object.entries(fields).map(([field, entry]) => {
      const type = typeOf(catalog.types, field);
      const theirValue = theirs(field);
      return {
        field,
        label: catalog.fields.find((f) => f.key === field)?.label ?? field,
        type,
        base: entry.base,
        // What "keep mine" writes: of a compound value, my parts over theirs (mergeParts); a
        // record gone there is made again or restored with mine as it is.
        mine:
          kind === 'fields'
            ? mineOverTheirs(type, entry.base, entry.value, theirValue)
            : entry.value,
        theirs: theirValue,
        editable: EDITABLE_TYPES.includes(type),
      };
    }),
  };
}

/** A comment edit whose comment was changed (`fields`) or deleted on the service. */
export function commentConflict(
  kind: OpConflict['kind'],
  op: OutboxOp,
  theirs: string | null,
  foundAt: string,
): OpConflict {
  return {
    kind,
    foundAt,
    fields: [
      {
        field: 'content',
        label: 'Comment',
        type: 'multi_line',
        base: op.baseContent,
        mine: op.content ?? '',
        theirs,
        editable: true,
      },
    ],
  };
}
