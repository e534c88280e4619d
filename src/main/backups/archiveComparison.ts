/**
 * A verified archive's records per module against the mirror's, in words: "archive: 1,350
 * assets; mirror: 1,352, 2 created since". Pure: the counts come in, sentences go out.
 */
import type { Verification } from '../../shared/ipc/areas/backups';
import type { ArchiveCheck } from './archiveVerify';

export interface MirrorCensus {
  apiName: string;
  pluralName: string;
  records: number;
  createdSince: number;
}

type ModuleComparison = Verification['comparison'][number];

const count = (n: number) => n.toLocaleString('en-US');

export function compareModule(
  module: string,
  label: string,
  archive: number,
  mirror: MirrorCensus | undefined,
): ModuleComparison {
  const head = `archive: ${count(archive)} ${label}`;
  if (!mirror) {
    return {
      module,
      label,
      archive,
      mirror: null,
      createdSince: null,
      summary: `${head}; the mirror holds no such module (not synced, or deleted since)`,
    };
  }
  const { records, createdSince } = mirror;
  let tail: string;
  if (records === archive) {
    tail = createdSince > 0 ? `the same number (${count(createdSince)} created since)` : 'the same';
  } else {
    const parts = [count(records)];
    if (createdSince > 0) parts.push(`${count(createdSince)} created since`);
    const unexplained = records - createdSince - archive;
    if (unexplained < 0)
      parts.push(`${count(-unexplained)} deleted or trashed since, or not synced`);
    else if (unexplained > 0) parts.push(`${count(unexplained)} more not in the archive`);
    tail = parts.join(', ');
  }
  return {
    module,
    label,
    archive,
    mirror: records,
    createdSince,
    summary: `${head}; mirror: ${tail}`,
  };
}

/** What the Backups view shows of a verified archive. */
export function verificationOf(
  check: ArchiveCheck,
  census: readonly MirrorCensus[],
  verifiedAt: string,
): Verification {
  const counts = check.counts;
  const byName = new Map(census.map((entry) => [entry.apiName, entry]));
  const comparison: ModuleComparison[] = [];
  if (counts) {
    const modules = new Set([...Object.keys(counts.recordsByModule), ...byName.keys()]);
    for (const module of [...modules].sort()) {
      const mirror = byName.get(module);
      const archive = counts.recordsByModule[module] ?? 0;
      if (archive === 0 && (!mirror || mirror.records === 0)) continue;
      const label = counts.moduleNames[module] ?? mirror?.pluralName ?? module;
      comparison.push(compareModule(module, label.toLowerCase(), archive, mirror));
    }
  }
  return {
    verifiedAt,
    entries: check.entries,
    readable: check.format !== null,
    records: counts?.records ?? null,
    comments: counts?.comments ?? null,
    modules: counts?.modules ?? null,
    comparison,
  };
}
