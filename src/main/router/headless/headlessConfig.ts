import { z } from 'zod';
import {
  EventApiName,
  FaultSettings,
  FilterGroup,
  HttpMethod,
  PublisherStatus,
  RouterAccount,
  RouterId,
  RuleStatus,
  TargetKind,
  TargetStatus,
} from '../../../shared/ipc/areas/router';

const NameValueMap = z.record(z.string().min(1).max(200), z.string().max(2000));

/** The headless command's `--config FILE` (README, "Event-router sandbox"): ids are the user's. */
export const HeadlessConfig = z
  .object({
    account: RouterAccount,
    publishers: z.array(
      z
        .object({
          id: RouterId,
          name: z.string().min(1).max(200).optional(),
          type: z.enum(['custom', 'suite', 'platform']).default('custom'),
          status: PublisherStatus.default('active'),
          /**
           * The key the publisher sends as X-Api-Key; stored hashed like any other. The spec sets
           * no rule and the key is the user's own publisher's: any non-empty key is taken, a short
           * one with a warning (shortKeyWarnings).
           */
          api_key: z.string().min(1, 'must not be empty').max(200),
          /** The service name in each event's `source`; default "custom". */
          service: z
            .string()
            .min(1)
            .max(100)
            .regex(/^[^/]+$/, 'must not contain "/"')
            .optional(),
          events: z.array(
            z
              .object({
                id: RouterId,
                api_name: EventApiName,
                sample: z.record(z.string(), z.unknown()).optional(),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    targets: z.array(
      z
        .object({
          id: RouterId,
          name: z.string().min(1).max(200).optional(),
          kind: TargetKind.default('webhook'),
          url: z.string().optional(),
          method: HttpMethod.default('POST'),
          status: TargetStatus.default('active'),
          headers: NameValueMap.default({}),
          query: NameValueMap.default({}),
          rate_limit: z.number().int().optional(),
          timeout_ms: z.number().int().optional(),
          fault: FaultSettings.optional(),
        })
        .strict(),
    ),
    rules: z.array(
      z
        .object({
          id: RouterId,
          name: z.string().min(1).max(200).optional(),
          status: RuleStatus.default('active'),
          retry_count: z.number().int().optional(),
          /** Event config ids. */
          events: z.array(RouterId).min(1),
          /** Absent: deliver all events. */
          filter: FilterGroup.optional(),
          targets: z.array(RouterId).min(1),
        })
        .strict(),
    ),
  })
  .strict();
export type HeadlessConfig = z.output<typeof HeadlessConfig>;

/** Ours: keys shorter than this are accepted with a warning (easy to guess). */
export const SHORT_API_KEY = 16;

/** One line per publisher whose key is short, saying which and why it matters. */
export function shortKeyWarnings(config: HeadlessConfig): string[] {
  return config.publishers
    .filter((publisher) => [...publisher.api_key].length < SHORT_API_KEY)
    .map(
      (publisher) =>
        `Publisher ${publisher.id}: its api_key has ${[...publisher.api_key].length} characters; a key under ${SHORT_API_KEY} is easy to guess for anyone who can reach the ingress.`,
    );
}

/** Parses the config file's text; the error lists every problem as `path: message`. */
export function parseHeadlessConfig(text: string, label: string): HeadlessConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${label} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = HeadlessConfig.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(top level)'}: ${issue.message}`,
    );
    throw new Error(`${label} is not a valid router config:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
