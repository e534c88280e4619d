/**
 * Readers of backup archives' contents. The spec does not show what a backup archive holds, so
 * each known layout is one `ArchiveFormat` here: which entries it has and how to count what they
 * hold. Today that is the emulator's (packages/emulator/README.md, "Archive"): portal.json,
 * users.json, modules.json, work_items.json, entities.json, status_timeline.json, comments.json.
 * An archive no format recognises is still verified (every entry decrypts, is checked and
 * measured) and says it cannot be browsed; another layout is one more format in this list.
 */
import { isObject, PortalArchiveRecords, type ArchiveRecord } from './portalArchiveRecords';

/** What counting an archive's entries found. */
export interface ArchiveCounts {
  /** Listed (not trashed) records per module api name. */
  recordsByModule: Record<string, number>;
  /** Records in the archive, trashed ones included. */
  records: number;
  comments: number;
  modules: number;
  /** Module api name → plural name, as the archive says. */
  moduleNames: Record<string, string>;
  /** When the service made the archive, if it says. */
  generatedAt: string | null;
  /** Which backup (export id) the archive says it is, if it says. */
  exportId: string | null;
  /** Which portal the archive says it is of, if it says. */
  portalId: string | null;
}

export interface ArchiveFormat {
  readonly name: string;
  /** True when the archive's entry names are this layout's. */
  recognises(entryNames: readonly string[]): boolean;
  /** A fresh tally for one archive. */
  tally(): ArchiveTally;
  /**
   * Its records in the API's shape, for comparing with the mirror: the entries to read, in the
   * order they must be read, and a fresh reader. Absent for a layout that cannot be browsed.
   */
  readonly recordEntries?: readonly string[];
  records?(): { add(entry: string, element: unknown): ArchiveRecord | null };
}

export interface ArchiveTally {
  /** One parsed element of an entry (a top-level array's item, or the whole document). */
  add(entry: string, element: unknown): void;
  result(): ArchiveCounts;
}

/** An id as the archive writes it: a string, or a whole number (the API writes both). */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : null;
}

const PORTAL_ENTRIES = ['portal.json', 'modules.json', 'entities.json', 'comments.json'];

export const portalArchiveFormat: ArchiveFormat = {
  name: 'portal export (entities.json, comments.json, modules.json)',
  // Users, modules and projects first: a record is read in their light (portalArchiveRecords.ts).
  recordEntries: ['users.json', 'modules.json', 'work_items.json', 'entities.json'],
  records: () => new PortalArchiveRecords(),
  recognises: (names) => PORTAL_ENTRIES.every((name) => names.includes(name)),
  tally() {
    // Data keys become object keys: no prototype, so a module called `__proto__` is a count.
    const recordsByModule: Record<string, number> = Object.create(null) as Record<string, number>;
    const moduleNames: Record<string, string> = Object.create(null) as Record<string, string>;
    let records = 0;
    let comments = 0;
    let modules = 0;
    let generatedAt: string | null = null;
    let exportId: string | null = null;
    let portalId: string | null = null;
    return {
      add(entry, element) {
        if (entry === 'entities.json') {
          records++;
          if (isObject(element) && typeof element.module === 'string' && !element.trashed_time) {
            recordsByModule[element.module] = (recordsByModule[element.module] ?? 0) + 1;
          }
        } else if (entry === 'comments.json') {
          comments++;
        } else if (entry === 'modules.json') {
          modules++;
          if (isObject(element) && typeof element.api_name === 'string') {
            moduleNames[element.api_name] =
              typeof element.plural_name === 'string' ? element.plural_name : element.api_name;
          }
        } else if (entry === 'portal.json' && isObject(element)) {
          if (isObject(element.export)) {
            const time = element.export.generated_time;
            if (typeof time === 'string') generatedAt = time;
            exportId = idOf(element.export.id) ?? exportId;
          }
          if (isObject(element.portal_details)) {
            portalId = idOf(element.portal_details.id) ?? portalId;
          }
        }
      },
      result: () => ({
        recordsByModule,
        records,
        comments,
        modules,
        moduleNames,
        generatedAt,
        exportId,
        portalId,
      }),
    };
  },
};

/** Every layout PortalDesk can read, tried in order. */
export const ARCHIVE_FORMATS: readonly ArchiveFormat[] = [portalArchiveFormat];
