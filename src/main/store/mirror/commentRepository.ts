import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import commentsSql from '../queries/mirrorComments.sql?raw';
import { namedStatements } from '../namedStatements';
import type { FullTextIndex } from './fullTextIndex';
import type { MetadataRepository } from './metadataRepository';
import { writeChanges, type MirrorChanges } from './mirrorChanges';
import { replaceListed } from './replaceListed';
import type { MirrorComment, MirrorStatusChange, MirrorUser } from './mirrorTypes';
import { MirrorWriteError } from './mirrorWriteError';

const queries = requireQueries(
  parseNamedQueries(commentsSql, 'mirrorComments.sql'),
  [
    'recordVersion',
    'commentIds',
    'upsertComment',
    'deleteCommentsNotIn',
    'commentSyncExists',
    'writeCommentSync',
    'comments',
    'commentNeedsChunk',
    'commentableRecords',
    'commentsReadChunk',
    'timelineIds',
    'upsertTimeline',
    'deleteTimelineNotIn',
    'timeline',
  ] as const,
  'mirrorComments.sql',
);

type Query = keyof typeof queries;

/** A record's place in the comment backfill's walk: its time as the index holds it, its id. */
export interface CommentWalkCursor {
  updated: number;
  id: string;
}

/**
 * Comments and status timelines of records. Both are read from the API one record at a time, so
 * each write replaces one record's whole list; `comment_sync` remembers which records' comments
 * are mirrored and as of which version of the record.
 */
export class CommentRepository {
  private readonly statement: (name: Query) => Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly metadata: MetadataRepository,
    private readonly fullText: FullTextIndex,
    private readonly now: () => number = Date.now,
  ) {
    this.statement = namedStatements(db, queries);
  }

  private recordVersion(portalId: string, recordId: string, what: string): string {
    const version = this.statement('recordVersion').pluck().get(portalId, recordId) as
      string | undefined;
    if (version === undefined) {
      throw new MirrorWriteError(
        `The ${what} of record ${recordId} (portal ${portalId}) cannot be stored: the record is ` +
          'not in the local mirror (deleted since, or not pulled yet). Nothing was stored; pull ' +
          'the record first.',
      );
    }
    return version;
  }

  /**
   * All comments of one record (the API's whole list): listed ones are upserted, others deleted,
   * and the record is marked as having its comments mirrored as of its current version.
   */
  replaceRecordComments(
    portalId: string,
    recordId: string,
    comments: readonly MirrorComment[],
    options: { users?: readonly MirrorUser[] } = {},
  ): MirrorChanges {
    return writeChanges(this.db, (log) => {
      const version = this.recordVersion(portalId, recordId, 'comments');
      replaceListed(log, this.statement, {
        table: 'comments',
        existing: 'commentIds',
        upsert: 'upsertComment',
        deleteNotIn: 'deleteCommentsNotIn',
        scope: [portalId, recordId],
        items: comments,
        key: (comment) => comment.id,
        row: (comment) => ({
          portalId,
          recordId,
          id: comment.id,
          content: comment.content,
          attachments: JSON.stringify(comment.attachmentIds),
          createdBy: comment.createdBy,
          createdTime: comment.createdTime,
          lastUpdatedTime: comment.lastUpdatedTime,
        }),
      });
      const synced = this.statement('commentSyncExists').pluck().get(portalId, recordId) === 1;
      this.statement('writeCommentSync').run(
        portalId,
        recordId,
        new Date(this.now()).toISOString(),
        version,
        comments.length,
      );
      log.add('comment_sync', synced ? 'updated' : 'inserted', [recordId]);
      if (options.users && options.users.length > 0) {
        this.metadata.upsertUsersIn(log, portalId, options.users);
      }
      this.fullText.flushIfDue();
    });
  }

  comments(portalId: string, recordId: string): MirrorComment[] {
    const rows = this.statement('comments').all(portalId, recordId) as (Omit<
      MirrorComment,
      'attachmentIds'
    > & { attachments: string })[];
    return rows.map(({ attachments, ...row }) => ({
      ...row,
      attachmentIds: JSON.parse(attachments) as string[],
    }));
  }

  /**
   * One chunk of the comment backfill's walk over a module's records of one list_state (0 as
   * stored, 1 with local edits), most recently changed first: the next `chunk` records after
   * `after` (null: from the newest), those whose comments need reading (never read, read at an
   * older version, or with `staleBefore` read before that instant, ISO), and where the next
   * chunk starts (null: the walk is done). src/main/sync/commentNeeds.ts walks it.
   */
  commentNeedsChunk(
    portalId: string,
    moduleId: string,
    listState: 0 | 1,
    after: CommentWalkCursor | null,
    options: { chunk: number; staleBefore?: string },
  ): { needing: CommentWalkCursor[]; next: CommentWalkCursor | null } {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined) return { needing: [], next: null };
    const rows = this.statement('commentNeedsChunk')
      .raw()
      .all({
        moduleKey,
        listState,
        // From the newest: past every time. A record whose time has no number (kept as sent
        // past year 9999, instant.ts) is never walked.
        updated: after?.updated ?? Number.MAX_VALUE,
        id: after?.id ?? '',
        chunk: options.chunk,
        staleBefore: options.staleBefore ?? null,
      }) as [string, number, number][];
    const needing = rows.filter((row) => row[2] === 1).map(([id, updated]) => ({ id, updated }));
    const last = rows.at(-1);
    return {
      needing,
      next:
        rows.length < options.chunk || last === undefined
          ? null
          : { id: last[0], updated: last[1] },
    };
  }

  /** The module's records whose comments the backfill reads (listed, not created here). */
  commentableRecords(portalId: string, moduleId: string): number {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined) return 0;
    return this.statement('commentableRecords').pluck().get({ moduleKey }) as number;
  }

  /**
   * The portal's next `chunk` comment_sync rows after record id `after` (null: the first): how
   * many are of this module's commentable records, read at the record's current version, and
   * where the next chunk starts (null: done). src/main/sync/commentNeeds.ts sums them.
   */
  commentsReadChunk(
    portalId: string,
    moduleId: string,
    after: string | null,
    chunk: number,
  ): { current: number; next: string | null } {
    const moduleKey = this.metadata.moduleKey(portalId, moduleId);
    if (moduleKey === undefined) return { current: 0, next: null };
    const row = this.statement('commentsReadChunk').get({
      portalId,
      moduleKey,
      after: after ?? '',
      chunk,
    }) as { rows: number; last: string | null; current: number };
    return { current: row.current, next: row.rows < chunk ? null : row.last };
  }

  /** A record's whole status timeline (the API's list): listed entries upserted, others deleted. */
  replaceStatusTimeline(
    portalId: string,
    recordId: string,
    entries: readonly MirrorStatusChange[],
  ): MirrorChanges {
    return writeChanges(this.db, (log) => {
      this.recordVersion(portalId, recordId, 'status timeline');
      replaceListed(log, this.statement, {
        table: 'status_timeline',
        existing: 'timelineIds',
        upsert: 'upsertTimeline',
        deleteNotIn: 'deleteTimelineNotIn',
        scope: [portalId, recordId],
        items: entries,
        key: (entry) => entry.id,
        row: (entry) => ({ ...entry, portalId, recordId }),
      });
    });
  }

  statusTimeline(portalId: string, recordId: string): MirrorStatusChange[] {
    return this.statement('timeline').all(portalId, recordId) as MirrorStatusChange[];
  }
}
