import type { FaultSettings } from '../../../shared/ipc/areas/router';

export type FaultAnswer =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'timeout' };

/**
 * What a fault target answers to its `call`-th call (0-based). Flaky targets fail evenly spread
 * and reproducibly rather than at random: call n fails when ceil((n+1)·rate) > ceil(n·rate), so
 * rate 0.5 fails the 1st, 3rd, 5th… call and any run of calls fails at the chosen rate.
 */
export function faultResponse(fault: FaultSettings, call: number): FaultAnswer {
  const json = (status: number, message: string, headers: Record<string, string> = {}) => ({
    kind: 'response' as const,
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ message }),
  });
  switch (fault.mode) {
    case 'always_500':
      return json(500, 'Fault target: always answers 500.');
    case 'timeout':
      return { kind: 'timeout' };
    case 'rate_limited':
      return json(429, 'Fault target: always rate limited.', {
        'retry-after': String(fault.retryAfterSeconds),
      });
    case 'gone':
      return json(410, 'Fault target: this endpoint is gone.');
    case 'flaky': {
      const fails = Math.ceil((call + 1) * fault.failureRate) > Math.ceil(call * fault.failureRate);
      return fails
        ? json(
            500,
            `Fault target: flaky, failing ${Math.round(fault.failureRate * 100)}% of calls.`,
          )
        : json(200, 'Fault target: flaky, this call succeeded.');
    }
  }
}
