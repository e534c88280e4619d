import { MAX_SCHEMA_KEYS } from '../../../shared/ipc/areas/router';
import { mergeValue } from './inferSchema';
import { readNode, UNKNOWN, writeNode } from './inferredSchema';
import { renderInferredSchema } from './renderInferredSchema';
import { RouterInputError } from '../engine/routerErrors';
import { sampleProblem } from './sampleProblem';
import { schemaKeyCount } from './schemaKeyCount';

/**
 * Schema inference that can be stored and resumed (the stored form: inferredSchema.ts). Issue 14
 * replaced @jsonhero/schema-infer, which was quadratic in an object's keys (a 63 KB sample with
 * 5,000 keys held the engine for 24 s) and lost `constructor` and `__proto__` keys, by a merge
 * that is linear in the sample, after a check that bounds the sample itself (sampleProblem).
 */

/**
 * Merges one more sample into a stored inference (or starts one); returns the new snapshot text.
 * Refuses (RouterInputError, nothing stored) a sample past the limits or with a `__proto__` key.
 */
export function mergeSample(sample: unknown, previous: string | null): string {
  const problem = sampleProblem(sample);
  if (problem) throw new RouterInputError(`${problem}. The schema was not changed.`);
  const base = previous === null ? UNKNOWN : readNode(JSON.parse(previous));
  const merged = mergeValue(base, sample);
  const keys = schemaKeyCount(renderInferredSchema(merged), MAX_SCHEMA_KEYS);
  if (keys > MAX_SCHEMA_KEYS) {
    throw new RouterInputError(
      `With this sample the schema would declare more than ${MAX_SCHEMA_KEYS} keys (nested ones included), the most a schema may. The schema was not changed; send a sample with fewer keys${previous === null ? '' : ', or start the schema afresh from a sample instead of merging'}.`,
    );
  }
  return JSON.stringify(writeNode(merged));
}

/** The JSON Schema (draft 2020-12, `$schema` included) of a stored inference. */
export function snapshotToSchema(snapshot: string): Record<string, unknown> {
  return renderInferredSchema(readNode(JSON.parse(snapshot)));
}
