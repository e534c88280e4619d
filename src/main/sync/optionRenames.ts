/**
 * Options renamed on the service since the last sync, as a relabelling of the records' values
 * (pure). The service relabels the records holding a renamed option without a new
 * last_updated_time, so no record pull brings the new name: the mirror's copies must follow
 * when the options are read, or the table keeps showing (and filtering by) a name the service no
 * longer has.
 *
 * A pair is left out when its old name is still the name of an option after the change (a swap, a
 * chain, a new option taking the old name): the records pulled in the same run (which runs beside
 * the settings) may already hold that name in its new meaning, so relabelling could change a
 * value that is right. Removed options are left out too: a list can lack an option for reasons
 * other than its removal, and clearing values on a guess would show an empty field.
 */

interface StoredOption {
  valueId: string;
  value: string | null;
}

interface ServiceOption {
  id: string;
  value: string;
}

/** Old name → new name of each option whose id stayed and whose name changed unambiguously. */
export function optionRenames(
  stored: readonly StoredOption[],
  service: readonly ServiceOption[],
): Map<string, string> {
  const nowNamed = new Set(service.map((option) => option.value));
  const byId = new Map(service.map((option) => [option.id, option.value]));
  const relabel = new Map<string, string>();
  for (const option of stored) {
    const now = byId.get(option.valueId);
    if (option.value === null || now === undefined || now === option.value) continue;
    if (nowNamed.has(option.value)) continue;
    relabel.set(option.value, now);
  }
  return relabel;
}
