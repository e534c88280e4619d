import { z } from 'zod';

/** Faults the admin surface can inject, per path pattern, for resilience tests. */
export const FaultRule = z
  .object({
    /** A regular expression matched against the request path. */
    path: z.string().min(1),
    /** Probability of answering 500 INTERNAL_SERVER_ERROR. */
    error500: z.number().min(0).max(1).default(0),
    /** Probability of answering 429 with Retry-After (without touching the real rate limit). */
    error429: z.number().min(0).max(1).default(0),
    /** Probability of destroying the connection without an answer, before the request runs. */
    reset: z.number().min(0).max(1).default(0),
    /**
     * Probability of running the request (a write is applied and committed) and then destroying
     * the connection before the answer goes out: the client cannot tell it from a `reset`.
     */
    dropAnswer: z.number().min(0).max(1).default(0),
    /**
     * Probability of cutting a file download short: the request runs, the status line and headers
     * go out with the full Content-Length, then only the first half of the body (of the range, for
     * a 206) before the connection is destroyed. For a JSON answer it is `dropAnswer`.
     */
    cutBody: z.number().min(0).max(1).default(0),
    /** Added latency in real milliseconds. */
    latencyMs: z.number().int().min(0).max(60_000).default(0),
    /** Only for this HTTP method, when given. */
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  })
  .strict();
export type FaultRule = z.infer<typeof FaultRule>;
/** A rule as written: the probabilities and the latency default to 0. */
export type FaultRuleInput = z.input<typeof FaultRule>;

export type FaultDecision =
  | { kind: 'none'; latencyMs: number }
  | { kind: 'error500' | 'error429' | 'reset' | 'dropAnswer' | 'cutBody'; latencyMs: number };

export class FaultInjector {
  private rules: { rule: FaultRule; pattern: RegExp }[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  set(rules: FaultRuleInput[]): void {
    this.rules = rules.map((input) => {
      const rule = FaultRule.parse(input);
      return { rule, pattern: new RegExp(rule.path) };
    });
  }

  list(): FaultRule[] {
    return this.rules.map(({ rule }) => rule);
  }

  decide(method: string, path: string): FaultDecision {
    let latencyMs = 0;
    for (const { rule, pattern } of this.rules) {
      if (rule.method && rule.method !== method) continue;
      if (!pattern.test(path)) continue;
      latencyMs += rule.latencyMs;
      if (this.random() < rule.reset) return { kind: 'reset', latencyMs };
      if (this.random() < rule.dropAnswer) return { kind: 'dropAnswer', latencyMs };
      // Drawn only when set, so the draws of rules written before `cutBody` existed are unchanged.
      if (rule.cutBody > 0 && this.random() < rule.cutBody) return { kind: 'cutBody', latencyMs };
      if (this.random() < rule.error500) return { kind: 'error500', latencyMs };
      if (this.random() < rule.error429) return { kind: 'error429', latencyMs };
    }
    return { kind: 'none', latencyMs };
  }
}
