import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../../src/main/bridge/dispatcher';
import { userFacingFor } from '../../../src/main/handlers/userFacing';

class Refused extends Error {}
class OtherRefused extends Error {}
class Internal extends Error {}

const userFacing = userFacingFor(Refused, OtherRefused);

/** What a wrapped handler ends with: its answer, or the error it throws or rejects with. */
async function outcome(run: () => unknown): Promise<{ answer: unknown } | { error: unknown }> {
  try {
    return { answer: await run() };
  } catch (error) {
    return { error };
  }
}

describe('userFacingFor', () => {
  it('passes a refusal on in its words, thrown at once or rejected later; anything else as it is', async () => {
    const errors = fc.constantFrom(
      (m: string) => new Refused(m),
      (m: string) => new OtherRefused(m),
      (m: string) => new Internal(m),
    );
    await fc.assert(
      fc.asyncProperty(errors, fc.string(), fc.boolean(), async (make, message, later) => {
        const error = make(message);
        const handler = userFacing((_x: number) => {
          if (later) return Promise.reject(error);
          throw error;
        });
        const got = await outcome(() => handler(1));
        if (error instanceof Internal) {
          expect(got).toEqual({ error });
        } else {
          expect('error' in got && got.error).toBeInstanceOf(UserFacingError);
          expect('error' in got && (got.error as Error).message).toBe(message);
        }
      }),
    );
  });

  it('answers as the handler does: a value at once, a promise later', async () => {
    const now = userFacing((x: number) => x + 1);
    expect(now(1)).toBe(2);
    const later = userFacing(async (x: number) => x + 1);
    const answer = later(1);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(2);
  });
});
