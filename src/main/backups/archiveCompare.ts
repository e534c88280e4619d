/**
 * Compares a downloaded backup with the mirror, record by record: the archive's records stream
 * out of it (bounded memory, as verification reads them), each is read the way a sync reads the
 * service and compared with the mirror's server copy; what the mirror holds and the archive does
 * not is counted after. The mirror's side is given by the caller (the store's reads).
 */
import { readEntity } from '@portaldesk/portal-api/domain/readEntity';
import type { ArchiveDiff } from '../../shared/ipc/areas/backups';
import type { ServerCopy } from '../store/mirror/recordRepository';
import { mapRecord } from '../sync/mapRecord';
import { changedFields, ModuleDiffTally, type FieldNames } from './archiveDiff';
import { checkEntry, withArchiveEntries } from './archiveVerify';
import { ARCHIVE_FORMATS, type ArchiveFormat } from './portalArchiveFormat';

/** The archive's layout is verified but unknown: its records cannot be compared or browsed. */
export class ArchiveNotReadableError extends Error {
  override name = 'ArchiveNotReadableError';
}

export interface MirrorSide {
  /** A listed record's server copy, or undefined. */
  copy(id: string): ServerCopy | undefined;
  /** Every listed server record: id, module api name, name. */
  listed(): { id: string; module: string; name: string }[];
  /** A module's plural name and its custom fields (type, label) by api name. */
  module(apiName: string): { label: string; fields: FieldNames } | undefined;
}

export interface CompareOptions {
  /** The layouts known (default: every one). */
  formats?: readonly ArchiveFormat[];
  /** Stops the comparison between two inflated chunks; it then throws the signal's reason. */
  signal?: AbortSignal;
}

export async function compareArchive(
  file: string,
  password: string,
  portalId: string,
  mirror: MirrorSide,
  now: Date,
  { formats = ARCHIVE_FORMATS, signal }: CompareOptions = {},
): Promise<ArchiveDiff> {
  return withArchiveEntries(file, password, async (files) => {
    const names = files.map((entry) => entry.filename);
    const format = formats.find((candidate) => candidate.recognises(names));
    if (!format?.records || !format.recordEntries) {
      throw new ArchiveNotReadableError(
        'PortalDesk verified this backup but does not know its layout, so its records cannot be compared with the mirror.',
      );
    }
    const records = format.records();
    const tally = format.tally();
    const listed = mirror.listed();
    const mirroredCount = new Map<string, number>();
    for (const record of listed) {
      mirroredCount.set(record.module, (mirroredCount.get(record.module) ?? 0) + 1);
    }
    const tallies = new Map<string, ModuleDiffTally>();
    const tallyOf = (module: string) => {
      let found = tallies.get(module);
      if (!found) {
        const label = mirror.module(module)?.label ?? module;
        found = new ModuleDiffTally(module, label, mirroredCount.get(module) ?? 0);
        tallies.set(module, found);
      }
      return found;
    };
    const seen = new Set<string>();
    const noFields: FieldNames = { custom: () => undefined };
    for (const name of ['portal.json', ...format.recordEntries]) {
      const entry = files.find((candidate) => candidate.filename === name);
      if (!entry) continue;
      signal?.throwIfAborted();
      const reading = signal ? { signal } : {};
      await checkEntry(
        entry,
        password,
        (element) => {
          tally.add(name, element);
          const read = records.add(name, element);
          if (!read) return;
          const entity = readEntity(read.entity);
          // A trashed record is not listed, in the archive as in the mirror.
          if (!entity || entity.trashed_time) return;
          const archived = mapRecord(portalId, '', entity);
          seen.add(archived.id);
          const copy = mirror.copy(archived.id);
          const fields =
            copy && copy.module === read.module
              ? changedFields(archived, copy, mirror.module(read.module)?.fields ?? noFields)
              : null;
          tallyOf(read.module).archivedRecord(archived.id, archived.name, fields);
        },
        reading,
      );
    }
    signal?.throwIfAborted();
    for (const record of listed) {
      if (!seen.has(record.id)) tallyOf(record.module).mirrorOnly(record.id, record.name);
    }
    return {
      comparedAt: now.toISOString(),
      generatedAt: tally.result().generatedAt,
      modules: [...tallies.values()]
        .map((module) => module.result())
        .sort((a, b) => a.label.localeCompare(b.label)),
    };
  });
}
