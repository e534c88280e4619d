/**
 * What a removal answered "does not exist" means (pure). A DELETE asks for something to be gone,
 * and the service's 404 says it is: the removal is delivered, never refused. Who removed it
 * decides only the words: after a send of ours that may have been applied (its answer lost: the
 * client sends a DELETE again at once, and the replay after a crash), most likely our own first
 * send; after none, someone else on the service before ours went. A 404 that names nothing the
 * removal asked for (the field or the module is gone) is a real refusal, and stays one.
 */
import { ApiError } from '../api/client/apiError';

export type RemovedBy = 'ours' | 'elsewhere';

/**
 * Whether the error says the thing is gone, and by whose removal; null when it is not a "does not
 * exist" (a refusal for a reason of the service's own: permission, validation).
 * `sentBefore`: an earlier run of the operation sent it (op.sentBody), its fate unknown.
 */
export function removedBy(error: unknown, sentBefore: boolean): RemovedBy | null {
  if (!(error instanceof ApiError) || error.status !== 404) return null;
  return sentBefore || error.earlierSendMayHaveActed ? 'ours' : 'elsewhere';
}

/**
 * After a bulk removal's 404 and a fresh read: the items the service no longer has (gone) and
 * those it still has (to send again, without the gone ones, which would make it refuse the whole
 * request again). Nothing gone: the 404 was about something else, a refusal.
 */
export function splitGone<T>(
  asked: readonly T[],
  stillThere: (item: T) => boolean,
): { gone: T[]; rest: T[] } | null {
  const gone = asked.filter((item) => !stillThere(item));
  if (gone.length === 0) return null;
  return { gone, rest: asked.filter(stillThere) };
}

/** The words of a removal, by its verb's past and plain forms. */
export interface RemovalVerb {
  past: 'removed' | 'deleted';
  plain: 'remove' | 'delete';
}

export const REMOVED: RemovalVerb = { past: 'removed', plain: 'remove' };
export const DELETED: RemovalVerb = { past: 'deleted', plain: 'delete' };

/**
 * What the Outbox's history says of items the service no longer had (`names` already quoted):
 * delivered either way, and by whom as far as can be told. `others`: the rest of the removal went.
 */
export function goneNote(
  names: readonly string[],
  by: RemovedBy,
  others: boolean,
  verb: RemovalVerb = REMOVED,
): string {
  const one = names.length === 1;
  const list = names.join(', ');
  const was = one ? 'was' : 'were';
  if (by === 'ours') {
    return (
      `${list} ${was} ${verb.past}: the service's first answer was lost, and when PortalDesk ` +
      `asked again the service no longer had ${one ? 'it' : 'them'}.` +
      (others ? ` The others were ${verb.past} too.` : '')
    );
  }
  return (
    `${list} ${was} already ${verb.past} on the service (by someone else) before this change went` +
    (others ? `; the others were ${verb.past}.` : `; nothing was left to ${verb.plain}.`)
  );
}
