import type Database from 'better-sqlite3';
import { parseNamedQueries, requireQueries } from '../sqlFile';
import searchSql from '../queries/mirrorSearch.sql?raw';
import { ftsMatchQuery } from './ftsMatchQuery';
import type { FullTextIndex } from './fullTextIndex';
import { highlightParts, type HighlightPart } from './highlightParts';
import { RecordQueryError } from './recordQueryError';

const queries = requireQueries(
  parseNamedQueries(searchSql, 'mirrorSearch.sql'),
  ['recordHits', 'commentHits'] as const,
  'mirrorSearch.sql',
);

/** The most hits one search returns. */
export const MAX_SEARCH_HITS = 200;
/** Words of context a snippet shows around the matched words. */
const SNIPPET_WORDS = 16;

/** An FTS5 string literal. */
const ftsString = (text: string) => `"${text.replace(/"/g, '""')}"`;

export interface RecordSearchInput {
  portalId: string;
  /** What the user typed: every word must occur, each as a word prefix. */
  text: string;
  limit: number;
  /** Only this module's records. */
  moduleId?: string;
}

/** Where the words were found; hits come in this order, newest first within each. */
export type SearchHitSource = 'name' | 'description' | 'comment';

export interface RecordSearchHit {
  recordId: string;
  moduleId: string;
  /**
   * `name`: every word is in the record's name; `description`: in the name and description
   * together; `comment`: in one of its comments.
   */
  source: SearchHitSource;
  commentId: string | null;
  /** The record's name, the matched words highlighted (comment hits: not highlighted). */
  name: HighlightPart[];
  /** The description or the comment around the matched words. */
  snippet: HighlightPart[];
}

interface RecordHit {
  recordId: string;
  moduleId: string;
  /** Marked text (char(2)/char(3) around matched words). */
  name: string;
  snippet: string | null;
}

interface CommentHit extends RecordHit {
  commentId: string;
}

/**
 * Full-text search over a portal's record names, descriptions and comment contents (FTS5).
 * Predictable order instead of a relevance score: name matches, then description matches, then
 * comment matches, each newest first (see mirrorSearch.sql for why not bm25).
 */
export class RecordSearch {
  private readonly recordHits: Database.Statement;
  private readonly commentHits: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly fullText: FullTextIndex,
  ) {
    this.recordHits = db.prepare(queries.recordHits);
    this.commentHits = db.prepare(queries.commentHits);
  }

  search(input: RecordSearchInput): RecordSearchHit[] {
    const { limit } = input;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_HITS) {
      throw new RecordQueryError(
        `A search returns 1 to ${MAX_SEARCH_HITS} hits, not ${limit}. Nothing was searched; ask for fewer.`,
      );
    }
    const words = ftsMatchQuery(input.text);
    if (words === null) return [];
    // Rows written since the last flush (by any writer) are indexed before reading.
    this.fullText.flush();
    const portal = `portal_id : ${ftsString(input.portalId)}`;
    const moduleId = input.moduleId ?? null;

    const snippetWords = SNIPPET_WORDS;
    const hits: RecordSearchHit[] = [];
    const seen = new Set<string>();
    const addRecords = (match: string, source: SearchHitSource) => {
      const rows = this.recordHits.all({ match, moduleId, limit, snippetWords }) as RecordHit[];
      for (const row of rows) {
        if (hits.length >= limit || seen.has(row.recordId)) continue;
        seen.add(row.recordId);
        hits.push({
          recordId: row.recordId,
          moduleId: row.moduleId,
          source,
          commentId: null,
          name: highlightParts(row.name),
          snippet: highlightParts(row.snippet),
        });
      }
    };
    addRecords(`${portal} AND name : (${words})`, 'name');
    if (hits.length < limit)
      addRecords(`${portal} AND {name description} : (${words})`, 'description');
    if (hits.length < limit) {
      const rows = this.commentHits.all({
        match: `${portal} AND content : (${words})`,
        moduleId,
        limit: limit - hits.length,
        snippetWords,
      }) as CommentHit[];
      for (const row of rows) {
        hits.push({
          recordId: row.recordId,
          moduleId: row.moduleId,
          source: 'comment',
          commentId: row.commentId,
          // The name as it is: the words were found in the comment.
          name: highlightParts(row.name),
          snippet: highlightParts(row.snippet),
        });
      }
    }
    return hits;
  }
}
