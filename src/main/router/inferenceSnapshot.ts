import { inferSchema, restoreSnapshot } from '@jsonhero/schema-infer';

/**
 * Schema inference that can be stored and resumed: @jsonhero/schema-infer keeps the alternatives of
 * a mixed-type value in a Set, which JSON.stringify would silently empty, so Sets are written as
 * `{"$set": [...]}` and restored on reading.
 */
export function serializeSnapshot(snapshot: unknown): string {
  return JSON.stringify(snapshot, (_key, value: unknown) =>
    value instanceof Set ? { $set: [...(value as Set<unknown>)] } : value,
  );
}

export function parseSnapshot(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && Array.isArray((value as { $set?: unknown }).$set)
      ? new Set((value as { $set: unknown[] }).$set)
      : value,
  );
}

/** Merges one more sample into a stored inference (or starts one); returns the new snapshot text. */
export function mergeSample(sample: unknown, previous: string | null): string {
  const inference = previous
    ? inferSchema(
        sample,
        restoreSnapshot(parseSnapshot(previous) as Parameters<typeof restoreSnapshot>[0]),
      )
    : inferSchema(sample);
  return serializeSnapshot(inference.toSnapshot());
}

/** The JSON Schema (draft 2020-12, `$schema` included) of a stored inference. */
export function snapshotToSchema(snapshot: string): Record<string, unknown> {
  const inference = restoreSnapshot(
    parseSnapshot(snapshot) as Parameters<typeof restoreSnapshot>[0],
  );
  return inference.toJSONSchema({ includeSchema: true }) as Record<string, unknown>;
}
