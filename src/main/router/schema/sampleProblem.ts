import { MAX_SAMPLE_BYTES, MAX_SCHEMA_DEPTH } from '../../../shared/ipc/areas/router';
import {
  isPrototypeKey,
  PROTOTYPE_KEY,
  PROTOTYPE_KEY_REASON,
} from '@portaldesk/portal-api/json/prototypeKey';

const isPlainObject = (value: object): boolean => {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

function where(path: readonly (string | number)[]): string {
  if (path.length === 0) return 'the sample itself';
  const text = path.join('.');
  // A path 32 levels deep would fill the message; its start says where to look.
  return text.length > 80 ? `${text.slice(0, 80)}… (${path.length} levels)` : text;
}

/**
 * Why a sample cannot be inferred, or null: it is larger than an event may be (as JSON text), it
 * nests deeper than a schema may, it has a `__proto__` key, or it holds something that is not
 * JSON. The walk stops at the first problem, so its cost is bounded by the limits, not by the
 * size of what was sent.
 */
export function sampleProblem(sample: unknown): string | null {
  let bytes = 0;
  const path: (string | number)[] = [];
  const tooLarge = (): string =>
    `The sample is larger than ${MAX_SAMPLE_BYTES / 1024} KB as JSON, the most an event may carry`;

  const visit = (value: unknown, depth: number): string | null => {
    // Sizes as JSON text would have them (strings counted in characters, without escapes).
    if (value === null || value === true) bytes += 4;
    else if (value === false) bytes += 5;
    else if (typeof value === 'string') bytes += value.length + 2;
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return `At ${where(path)} the number ${value} is not JSON`;
      bytes += String(value).length;
    } else if (typeof value === 'object') {
      if (depth >= MAX_SCHEMA_DEPTH) {
        return `At ${where(path)} the sample nests deeper than ${MAX_SCHEMA_DEPTH} levels, the most a schema may`;
      }
      if (Array.isArray(value)) {
        bytes += 2;
        for (let index = 0; index < value.length; index += 1) {
          path.push(index);
          const problem = visit(value[index], depth + 1);
          path.pop();
          if (problem) return problem;
          bytes += 1;
          if (bytes > MAX_SAMPLE_BYTES) return tooLarge();
        }
      } else if (isPlainObject(value)) {
        bytes += 2;
        for (const key of Object.keys(value)) {
          if (isPrototypeKey(key)) {
            return `At ${where(path)} the sample has a key named "${PROTOTYPE_KEY}": ${PROTOTYPE_KEY_REASON}. Rename that key`;
          }
          bytes += key.length + 4; // "key": and a comma
          path.push(key);
          const problem = visit((value as Record<string, unknown>)[key], depth + 1);
          path.pop();
          if (problem) return problem;
          if (bytes > MAX_SAMPLE_BYTES) return tooLarge();
        }
      } else {
        return `At ${where(path)} the sample holds a ${value.constructor?.name ?? 'non-JSON'} object, which is not JSON`;
      }
    } else {
      return `At ${where(path)} the sample holds a ${typeof value}, which is not JSON`;
    }
    return bytes > MAX_SAMPLE_BYTES ? tooLarge() : null;
  };
  return visit(sample, 0);
}
