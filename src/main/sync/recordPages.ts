/**
 * Pages of records read where they are stored.
 *
 * Why: a sync of 32 busy endpoint keys spent most of the engine thread's time on record pages it
 * only passed on (bench:scale, bench/README.md): parsing each reply (17.9 s of a 128 s run), the
 * garbage that made (11.4 s of collections), mapping (3.3 s) and copying the records to the
 * writer thread (5.1 s). Meanwhile `records.query` answers waited behind it. A page's records
 * are now read, mapped and kept by whoever stores them: the mirror's writer thread, or the
 * engine's connection when there is no thread. The engine's thread gets back only what the
 * pull decides with: each record's id and `last_updated_time`, the skipped items and
 * `page_info`. Those come as a RecordRef each, which a later write (`upsertPage`,
 * `upsertRecords`) names instead of the records.
 *
 * A page is held from its reading until a write names one of its records, or until its pull
 * ends (`releasePull`: pages read and never stored, such as a scan window dropped when the list
 * shifted, and readings that arrive after a failed or stopped pull).
 */
import { randomUUID } from 'node:crypto';
import type { Entity } from '@portaldesk/portal-api/domain/entity';
import type { SkippedItem } from '@portaldesk/portal-api/domain/parseEach';
import { ENDPOINTS } from '../api/client/endpoints';
import type { ListPage } from '../api/client/endpointTypes';
import { readReply, type ReplyReading } from '../api/client/readReply';
import type { Mirror } from '../store/mirror/mirror';
import type { MirrorChanges } from '../store/mirror/mirrorChanges';
import type { MirrorCursorUpdate, MirrorRecord, MirrorUser } from '../store/mirror/mirrorTypes';
import { mapRecord } from './mapRecord';
import { MentionedUsers } from './mentionedUsers';

/** A record of a page held by RecordPages: what a pull decides with, and where the record is. */
export interface RecordRef {
  id: string;
  /** As stored (canonical UTC): an incremental pull's high-water mark moves by it. */
  last_updated_time: string;
  /**
   * The page it was read in: unique to the RecordPages that read it, so that a page named after
   * the writer thread stopped (writes then go to the engine's connection) is never another one.
   */
  page: string;
  /** Its place among the page's records. */
  at: number;
}

/** Where a page's records belong, and the pull that asked for it. */
export interface PageOwner {
  portalId: string;
  moduleId: string;
  /** The pull's own token: `releasePull` lets go of every page read for it. */
  pull: string;
}

/** A reading of a page of records, as the API client reads any reply (readReply.ts). */
export type PageReading =
  | { ok: true; value: ListPage<RecordRef>; skipped: SkippedItem[] }
  | { ok: false; problems: string[] };

interface HeldPage {
  pull: string;
  records: MirrorRecord[];
  users: MirrorUser[];
}

/** Pulls remembered as over, so that readings arriving after their end are not held. */
const ENDED_PULLS_KEPT = 1_000;

const LIST_REPLY = ENDPOINTS.listEntities.reply;

export class RecordPages {
  private readonly instance = randomUUID();
  private nextPage = 1;
  private readonly held = new Map<string, HeldPage>();
  private readonly endedPulls = new Set<string>();

  constructor(private readonly mirror: Pick<Mirror, 'records'>) {}

  /**
   * A reply of `listEntities` read as the API client would read it, its records mapped for
   * `owner` and kept. A page with no readable record is not kept, nor one of a pull already
   * over (a reply read after its pull failed or was stopped: the pull will not name it).
   */
  read(bytes: Uint8Array, owner: PageOwner): PageReading {
    const reading: ReplyReading = readReply(LIST_REPLY, bytes);
    if (!reading.ok) return reading;
    const list = reading.value as ListPage<Entity>;
    const page = `${this.instance}/${this.nextPage++}`;
    const refs: RecordRef[] = new Array<RecordRef>(list.items.length);
    const records: MirrorRecord[] = new Array<MirrorRecord>(list.items.length);
    for (let at = 0; at < list.items.length; at++) {
      const entity = list.items[at]!;
      records[at] = mapRecord(owner.portalId, owner.moduleId, entity);
      refs[at] = { id: entity.id, last_updated_time: entity.last_updated_time, page, at };
    }
    if (records.length > 0 && !this.endedPulls.has(owner.pull)) {
      const users = new MentionedUsers();
      users.addRecords(list.items);
      this.held.set(page, { pull: owner.pull, records, users: users.list() });
    }
    return { ok: true, value: { ...list, items: refs }, skipped: reading.skipped };
  }

  /** RecordRepository.upsertRecordPage of the records `refs` name; their pages are let go. */
  upsertPage(refs: readonly RecordRef[], cursor: MirrorCursorUpdate): MirrorChanges {
    return this.store(refs, (records, users) =>
      this.mirror.records.upsertRecordPage(records, cursor, { users }),
    );
  }

  /** RecordRepository.upsertRecords of the records `refs` name; their pages are let go. */
  upsertRecords(refs: readonly RecordRef[]): MirrorChanges {
    return this.store(refs, (records, users) =>
      this.mirror.records.upsertRecords(records, { users }),
    );
  }

  /**
   * Lets go of pages: those a write named, or one no write will name (a scan window dropped).
   * Unknown ones are ignored.
   */
  release(pages: Iterable<string>): void {
    for (const page of pages) this.held.delete(page);
  }

  /**
   * A pull is over, stored or not: lets go of every page read for it (scan windows dropped when
   * the list shifted, pages of a failed or stopped pull), and of any reading of it still to come.
   */
  releasePull(pull: string): void {
    for (const [page, held] of this.held) if (held.pull === pull) this.held.delete(page);
    this.endedPulls.add(pull);
    if (this.endedPulls.size > ENDED_PULLS_KEPT) {
      this.endedPulls.delete(this.endedPulls.values().next().value!);
    }
  }

  /** How many pages are held (tests: a finished pull holds none). */
  heldPages(): number {
    return this.held.size;
  }

  /** The records and people `refs` name, written by `write`; their pages are let go either way. */
  private store(
    refs: readonly RecordRef[],
    write: (records: MirrorRecord[], users: MirrorUser[]) => MirrorChanges,
  ): MirrorChanges {
    const { records, users, pages } = this.take(refs);
    try {
      return write(records, users);
    } finally {
      this.release(pages);
    }
  }

  private take(refs: readonly RecordRef[]) {
    const records: MirrorRecord[] = new Array<MirrorRecord>(refs.length);
    const pages = new Set<string>();
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i]!;
      const record = this.held.get(ref.page)?.records[ref.at];
      if (!record || record.id !== ref.id) {
        throw new Error(
          `The page holding record ${ref.id} is no longer held here (it was stored, or the thread that read it stopped); nothing of this write was stored, and the next sync reads it again.`,
        );
      }
      records[i] = record;
      pages.add(ref.page);
    }
    const users = new MentionedUsers();
    for (const page of pages) {
      for (const user of this.held.get(page)!.users) users.add(user.zpuid, user.name, user.email);
    }
    return { records, users: users.list(), pages };
  }
}
