/**
 * What the client needs from the request scheduler (src/main/api/requestScheduler.ts implements
 * it): every send goes through `schedule`, which releases it within the endpoint key's budget, by
 * priority, and handles 429 itself. The client calls `schedule` once per attempt.
 */

/** The user's own actions and outbox replays, then what the user is looking at, then sync. */
export type RequestPriority = 'user' | 'visible' | 'background';

export interface ScheduledRequest {
  /** The rate limit's endpoint key (data center + method + route template + portal id). */
  key: string;
  priority: RequestPriority;
  /** Sends the request once; `signal` aborts it. */
  send: (signal: AbortSignal) => Promise<Response>;
  /** The caller's cancellation. */
  signal?: AbortSignal;
}

export interface ApiScheduler {
  schedule(request: ScheduledRequest): Promise<Response>;
}
