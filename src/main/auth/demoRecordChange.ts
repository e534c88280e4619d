/**
 * "Change this record on the server", in the demo portal only: a colleague's edit made on the
 * embedded emulator (its admin record change), so a new user can meet a conflict and try Keep
 * mine / Take theirs in a minute. The mirror is left alone: the user's copy keeps the old values
 * until the next sync, which is what makes a queued edit of the same field a conflict. Any account
 * of a real service is refused: PortalDesk never changes a service's data behind the user.
 */
import { ENTITY_LIMITS } from '@portaldesk/portal-api/domain/customFieldTypes';
import type { DemoChangeResult } from '../../shared/ipc/areas/accounts';
import { UserFacingError } from '../bridge/dispatcher';
import type { RecordDetail } from '../../shared/ipc/areas/records';
import type { RecordsReader } from '../records/recordsReader';
import type { Mirror } from '../store/mirror/mirror';
import { RecordQueryError } from '../store/mirror/recordQueryError';
import type { AccountManager } from './accountManager';
import { DEMO_PROFILE_ID, type DemoRecordEdit, type DemoService } from './demoService';

/** The record fields a demo change may touch: those whose values are plain text. */
export type DemoChangedField = 'name' | 'description';

const LABELS: Record<DemoChangedField, string> = { name: 'name', description: 'description' };

/** What the demo change needs to know of the record, from the mirror. */
export interface DemoRecordFacts {
  /** The module's API name. */
  module: string;
  /** The server's values as last pulled, without the user's pending edits. */
  serverName: string;
  serverDescription: string;
  /** Fields with an edit queued here and not sent yet. */
  pendingFields: readonly string[];
}

/** The mark a demo change leaves, so the user sees which value is "theirs". */
export const markOf = (time: string) => ` (changed on the server ${time})`;
const EARLIER_MARK = / \(changed on the server [0-9:]+\)$/;
const EARLIER_NOTE = /(\n\n)?Changed on the server [0-9:]+ by another user\.$/;

/**
 * The colleague's edit (pure): the name always gets a mark with the time (an earlier mark is
 * replaced, so repeated changes never grow it past the spec's limit); the description too when
 * the user has an edit of it queued, so both fields of the user can meet theirs.
 */
export function planDemoChange(
  record: DemoRecordFacts,
  time: string,
): {
  changes: Record<DemoChangedField, string> | Record<'name', string>;
  fields: DemoChangedField[];
} {
  const mark = markOf(time);
  const base = record.serverName.replace(EARLIER_MARK, '');
  const room = ENTITY_LIMITS.name - [...mark].length;
  const name = [...base].slice(0, room).join('').trimEnd() + mark;
  if (!record.pendingFields.includes('description')) {
    return { changes: { name }, fields: ['name'] };
  }
  const note = `Changed on the server ${time} by another user.`;
  const kept = record.serverDescription.replace(EARLIER_NOTE, '');
  const description =
    kept === ''
      ? note
      : `${[...kept].slice(0, ENTITY_LIMITS.description - note.length - 2).join('')}\n\n${note}`;
  return { changes: { name, description }, fields: ['name', 'description'] };
}

/** What the user is told once the change is made (pure): who, what, and how to see the conflict. */
export function demoChangeMessage(
  changedBy: string,
  fields: readonly DemoChangedField[],
  pendingFields: readonly string[],
): string {
  const what = fields.map((field) => LABELS[field]).join(' and ');
  const queued = fields.filter((field) => pendingFields.includes(field));
  const done = `${changedBy} changed the ${what} of this record on the demo service.`;
  if (queued.length > 0) {
    return `${done} Your queued edit of the ${queued.map((f) => LABELS[f]).join(' and ')} will meet theirs when it is sent: the Outbox then shows the conflict, where you choose Keep mine or Take theirs.`;
  }
  return `${done} This copy shows your old ${what} until the next sync: edit the name here before then (Work offline keeps the sync away), and when your edit is sent the Outbox shows the conflict.`;
}

export type MirroredRecord =
  | { kind: 'missing' }
  | { kind: 'local' }
  | { kind: 'trashed' }
  | ({ kind: 'on_service' } & DemoRecordFacts);

export interface DemoRecordChangeDeps {
  /** The signed-in account that reaches a portal, if the mirror knows the portal. */
  accountOfPortal(
    portalId: string,
  ): { label: string; profileId: string; profileName: string } | undefined;
  /**
   * The record in the mirror: `missing` when it is not there, `local` when it was created here
   * and is not on the service yet, `trashed` when it is in the recycle bin.
   */
  record(portalId: string, recordId: string): MirroredRecord;
  /** The running demo portal (started if it is not yet). */
  demo(): Promise<{
    changeRecordAsColleague(edit: DemoRecordEdit): Promise<{ changedBy: string }>;
  }>;
  /** The time written into the changed values, as the user's clock shows it (HH:MM:SS). */
  clockTime?(): string;
}

const localClockTime = () => new Date().toTimeString().slice(0, 8);

/** Checks that the record is the demo's and on its service, then has the colleague change it. */
export async function changeDemoRecord(
  deps: DemoRecordChangeDeps,
  portalId: string,
  recordId: string,
): Promise<DemoChangeResult> {
  const account = deps.accountOfPortal(portalId);
  if (!account) {
    throw new UserFacingError(
      `Portal ${portalId} is not in the local mirror of any signed-in account; nothing was changed. Open a record of the demo portal and try again.`,
    );
  }
  if (account.profileId !== DEMO_PROFILE_ID) {
    throw new UserFacingError(
      `Only records of the demo portal can be changed on the server from PortalDesk: "${account.label}" belongs to ${account.profileName}, a real service, whose data PortalDesk changes only through your own edits. Nothing was changed.`,
    );
  }
  const record = deps.record(portalId, recordId);
  if (record.kind === 'missing') {
    throw new UserFacingError(
      `Record ${recordId} is not in the local mirror of the demo portal; nothing was changed. Sync the portal, then open the record again.`,
    );
  }
  if (record.kind === 'local') {
    throw new UserFacingError(
      'This record was created here and is not on the demo service yet, so nobody else can change it; nothing was changed. Go online to send it first, then try again.',
    );
  }
  if (record.kind === 'trashed') {
    throw new UserFacingError(
      'This record is in the recycle bin, where nobody can change it; nothing was changed. Restore it first.',
    );
  }
  const { changes, fields } = planDemoChange(record, (deps.clockTime ?? localClockTime)());
  let changedBy: string;
  try {
    const demo = await deps.demo();
    ({ changedBy } = await demo.changeRecordAsColleague({
      portalId,
      module: record.module,
      recordId,
      changes,
    }));
  } catch (error) {
    throw new UserFacingError(
      `The demo service did not change the record: ${error instanceof Error ? error.message : String(error)} Nothing was changed here.`,
    );
  }
  return {
    message: demoChangeMessage(changedBy, fields, record.pendingFields),
    fields,
    changedBy,
  };
}

/** The deps over the engine's own pieces: the mirror, the accounts and the demo portal. */
export function engineDemoRecordChangeDeps(parts: {
  mirror: Mirror;
  reader: Pick<RecordsReader, 'detail'>;
  accounts: Pick<AccountManager, 'state'>;
  demo: Pick<DemoService, 'start'>;
}): DemoRecordChangeDeps {
  const { mirror, reader, accounts, demo } = parts;
  return {
    accountOfPortal: (portalId) => {
      const portal = mirror.metadata.portal(portalId);
      return portal && accounts.state().accounts.find((a) => a.accountId === portal.accountId);
    },
    record: (portalId, recordId) => {
      let detail: RecordDetail;
      try {
        detail = reader.detail(portalId, recordId);
      } catch (error) {
        if (error instanceof RecordQueryError) return { kind: 'missing' };
        throw error;
      }
      if (detail.record.localOnly) return { kind: 'local' };
      if (detail.trashedTime !== null) return { kind: 'trashed' };
      const server = mirror.records.serverCopy(portalId, recordId);
      if (!server) return { kind: 'missing' };
      return {
        kind: 'on_service',
        module: server.module,
        serverName: server.name,
        serverDescription: server.description,
        pendingFields: detail.record.pendingFields,
      };
    },
    demo: () => demo.start(),
  };
}
