/**
 * How a request of the contract is declared. Its own module so that each area's requests
 * (src/shared/ipc/areas/*.ts) can be declared beside each other and composed in contract.ts
 * without importing the contract itself.
 */
import { z } from 'zod';

export interface RequestSpec<A extends z.ZodType, R extends z.ZodType> {
  readonly args: A;
  readonly result: R;
  readonly summary: string;
}

export function request<A extends z.ZodType, R extends z.ZodType>(
  args: A,
  result: R,
  summary: string,
): RequestSpec<A, R> {
  return { args, result, summary };
}

/** A request that takes no argument. */
export const NoArgs = z.undefined();
