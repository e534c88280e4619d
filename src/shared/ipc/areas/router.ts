/**
 * The router area's requests and pushed events (the event-router sandbox, spec 000), plus the
 * shapes they carry: publishers, event configs, schemas, rules with their filters, targets, events,
 * executions and attempts. contract.ts composes every area's; the engine (src/main/router) and the
 * renderer (features/router) both read the limits and the comparator catalogue from here.
 */
import { z } from 'zod';
import { NoArgs, request } from '../contractSpec';
import {
  isPrototypeKey,
  PROTOTYPE_KEY,
  PROTOTYPE_KEY_REASON,
} from '@portaldesk/portal-api/json/prototypeKey';

// ---------------------------------------------------------------------------------------------
// Limits. Those the spec or the issue states cite it; the others are our choices (see
// src/main/router/README.md, "Choices where the spec is silent").

/** Issue 8: API names of custom events have at most 50 characters. */
export const MAX_EVENT_API_NAME_LENGTH = 50;
/**
 * Ours: events one rule listens to (a suite publisher has five a module). Bounded so a huge list
 * is refused at once instead of each wrong id being checked and complained about.
 */
export const MAX_EVENTS_PER_RULE = 1_000;
/** Issue 8: a rule has one or more targets, at most 5. */
export const MAX_TARGETS_PER_RULE = 5;
/** Issue 8: a webhook has up to 25 headers and up to 25 query parameters. */
export const MAX_TARGET_HEADERS = 25;
export const MAX_TARGET_QUERY_PARAMS = 25;
/** Issue 8: a target's invocation rate limit is 1-300 per second. */
export const MIN_TARGET_RATE_PER_SECOND = 1;
export const MAX_TARGET_RATE_PER_SECOND = 300;
/** Spec 000, Limits: the live payload capture URL is valid for 15 minutes. */
export const CAPTURE_VALIDITY_MS = 15 * 60_000;
/** Issue 8: an ingress body over 64 KB is refused. */
export const MAX_EVENT_BODY_BYTES = 64 * 1024;
/** Issue 8 (the real service's documented limit): 500 requests per minute per publisher... */
export const INGRESS_REQUESTS_PER_WINDOW = 500;
export const INGRESS_WINDOW_MS = 60_000;
/** ...then 429 for 60 seconds. */
export const INGRESS_BLOCK_MS = 60_000;
/** Our choice (spec 000: "Retry count default and delay between attempts: not shown"). */
export const DEFAULT_RETRY_COUNT = 3;
export const MAX_RETRY_COUNT = 10;
/** Our choice: a webhook gets 1-30 seconds to answer, 10 by default. */
export const MIN_TARGET_TIMEOUT_MS = 1_000;
export const MAX_TARGET_TIMEOUT_MS = 30_000;
export const DEFAULT_TARGET_TIMEOUT_MS = 10_000;
/** Our choice: conditions per rule, and how deeply AND/OR groups nest. */
export const MAX_RULE_CONDITIONS = 25;
export const MAX_FILTER_DEPTH = 3;
/**
 * Ours (issue 14): what a schema may hold, so that no sample or edit can hold the engine for
 * long. A sample stands for an event's data, which the ingress caps at 64 KB (as JSON text).
 * Validating events compiles the schema (Ajv, about 0.15 ms per key measured on our CI class of
 * machine): 500 keys keep that well under the 100 ms the engine may block. Real payloads nest a
 * handful of levels; 32 leaves room and keeps every walk of a schema shallow.
 */
export const MAX_SAMPLE_BYTES = MAX_EVENT_BODY_BYTES;
export const MAX_SCHEMA_KEYS = 500;
export const MAX_SCHEMA_DEPTH = 32;
/**
 * Ours (issue 19): what a request bin keeps of a request's headers. A bin's headers are the
 * target's (at most MAX_TARGET_HEADERS) plus two of ours, but `{{path}}` templates fill values
 * from event data, so their size is bounded here; headers past either bound are left out and
 * counted (the attempt's record keeps the whole request).
 */
export const MAX_BIN_HEADERS = 64;
export const MAX_BIN_HEADER_BYTES = 16 * 1024;

// ---------------------------------------------------------------------------------------------
// Identifiers and statuses.

/** Spec 000: ids are long numeric strings (rule_id, target_id, event and event_config ids). */
export const RouterId = z
  .string()
  .regex(/^[0-9]{1,19}$/, 'must be a numeric string of 1-19 digits (the spec\'s "long" ids)');

/** Letters, digits and underscores, no leading digit, at most 50 characters (issue 8). */
export const EventApiName = z
  .string()
  .max(MAX_EVENT_API_NAME_LENGTH, `must be at most ${MAX_EVENT_API_NAME_LENGTH} characters`)
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'must use letters, digits and underscores only, and not start with a digit',
  );

/** Spec 000: the default event scopes of suite publishers. */
export const SuiteScope = z.enum(['Create', 'Update', 'Delete', 'Approve', 'Reject']);
export type SuiteScope = z.infer<typeof SuiteScope>;

export const PublisherKind = z.enum(['suite', 'platform', 'custom']);
export type PublisherKind = z.infer<typeof PublisherKind>;
export const PublisherStatus = z.enum(['active', 'inactive']);
export type PublisherStatus = z.infer<typeof PublisherStatus>;
export const RuleStatus = z.enum(['active', 'inactive', 'disabled', 'deleted']);
export type RuleStatus = z.infer<typeof RuleStatus>;
export const TargetStatus = RuleStatus;
export type TargetStatus = RuleStatus;

/** Per rule and target (issue 8); `Unprocessed` marks a pair not run because of an inactive rule or target. */
export const ExecutionStatus = z.enum([
  'In Queue',
  'In Progress',
  'Retry Scheduled',
  'Success',
  'Failed',
  'Dropped',
  'Unprocessed',
]);
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;

/** Spec 000, "States and transitions": one overall status per event. */
export const OverallStatus = z.enum([
  'Received',
  'In Queue',
  'In Progress',
  'Success',
  'Failed',
  'Unmatched',
  'Unprocessed',
  'Dropped',
]);
export type OverallStatus = z.infer<typeof OverallStatus>;

// ---------------------------------------------------------------------------------------------
// Rule filters: conditions on schema paths, combined with AND/OR.

export const ValueType = z.enum(['string', 'number', 'boolean', 'datetime']);
export type ValueType = z.infer<typeof ValueType>;

export interface ComparatorSpec {
  id: string;
  label: string;
  /** 0: no value; 1: one value; 2: two values `[from, to]`. */
  operands: 0 | 1 | 2;
}

/** The comparators the real service documents per type (issue 8), with their labels. */
export const COMPARATORS = {
  string: [
    { id: 'is', label: 'is', operands: 1 },
    { id: 'is_not', label: "isn't", operands: 1 },
    { id: 'contains', label: 'contains', operands: 1 },
    { id: 'not_contains', label: "doesn't contain", operands: 1 },
    { id: 'starts_with', label: 'starts with', operands: 1 },
    { id: 'ends_with', label: 'ends with', operands: 1 },
    { id: 'is_empty', label: 'is empty', operands: 0 },
    { id: 'is_not_empty', label: 'is not empty', operands: 0 },
  ],
  number: [
    { id: 'eq', label: '=', operands: 1 },
    { id: 'neq', label: '!=', operands: 1 },
    { id: 'lt', label: '<', operands: 1 },
    { id: 'lte', label: '<=', operands: 1 },
    { id: 'gt', label: '>', operands: 1 },
    { id: 'gte', label: '>=', operands: 1 },
    { id: 'between', label: 'between', operands: 2 },
    { id: 'not_between', label: 'not between', operands: 2 },
    { id: 'is_empty', label: 'is empty', operands: 0 },
    { id: 'is_not_empty', label: 'is not empty', operands: 0 },
  ],
  boolean: [
    { id: 'is', label: 'is', operands: 1 },
    { id: 'is_not', label: "isn't", operands: 1 },
  ],
  datetime: [
    { id: 'is', label: 'is', operands: 1 },
    { id: 'is_not', label: "isn't", operands: 1 },
    { id: 'before', label: 'before', operands: 1 },
    { id: 'after', label: 'after', operands: 1 },
    { id: 'between', label: 'between', operands: 2 },
    { id: 'not_between', label: 'not between', operands: 2 },
    { id: 'is_empty', label: 'empty', operands: 0 },
    { id: 'today', label: 'Today', operands: 0 },
    { id: 'tomorrow', label: 'Tomorrow', operands: 0 },
    { id: 'tomorrow_onwards', label: 'Tomorrow onwards', operands: 0 },
    { id: 'yesterday', label: 'Yesterday', operands: 0 },
    { id: 'till_yesterday', label: 'Till yesterday', operands: 0 },
    { id: 'last_week', label: 'Last week', operands: 0 },
    { id: 'current_week', label: 'Current week', operands: 0 },
    { id: 'next_week', label: 'Next week', operands: 0 },
    { id: 'last_month', label: 'Last month', operands: 0 },
    { id: 'current_month', label: 'Current month', operands: 0 },
    { id: 'next_month', label: 'Next month', operands: 0 },
  ],
} as const satisfies Record<ValueType, readonly ComparatorSpec[]>;

export type ComparatorId<T extends ValueType = ValueType> = (typeof COMPARATORS)[T][number]['id'];

export function findComparator(type: ValueType, id: string): ComparatorSpec | undefined {
  return (COMPARATORS[type] as readonly ComparatorSpec[]).find((spec) => spec.id === id);
}

/** A path into the event's `data`, dot-separated (`customer.email`); array items by index (`items.0.sku`). */
export const DataPath = z
  .string()
  .min(1, 'must name a key of the event data')
  .max(500)
  .regex(/^[^.]+(\.[^.]+)*$/, 'must be keys separated by single dots, e.g. customer.email')
  .refine((path) => !path.split('.').some(isPrototypeKey), {
    message: `may not name the key "${PROTOTYPE_KEY}": ${PROTOTYPE_KEY_REASON}; rename that key`,
  });

const Operand = z.union([z.string().max(1000), z.number(), z.boolean()]);

export const FilterCondition = z
  .object({
    path: DataPath,
    type: ValueType,
    comparator: z.string(),
    /** One value, or `[from, to]` for between / not between; absent for comparators without one. */
    value: z.union([Operand, z.tuple([Operand, Operand])]).optional(),
  })
  .superRefine((condition, ctx) => {
    const spec = findComparator(condition.type, condition.comparator);
    if (!spec) {
      const known = COMPARATORS[condition.type].map((c) => c.id).join(', ');
      ctx.addIssue({
        code: 'custom',
        path: ['comparator'],
        message: `"${condition.comparator}" is not a ${condition.type} comparator (one of: ${known})`,
      });
      return;
    }
    const value = condition.value;
    if (spec.operands === 0 && value !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `${spec.label} takes no value` });
    }
    if (spec.operands === 1 && (value === undefined || Array.isArray(value))) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `${spec.label} needs one value` });
    }
    if (spec.operands === 2 && !Array.isArray(value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `${spec.label} needs two values [from, to]`,
      });
    }
    const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
    for (const single of values) {
      const problem = operandProblem(condition.type, single);
      if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
    }
  });
export type FilterCondition = z.infer<typeof FilterCondition>;

/** Why a value cannot be compared with a field of this type, or null. */
export function operandProblem(type: ValueType, value: string | number | boolean): string | null {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? null : 'must be text';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'datetime':
      if (typeof value === 'number' && Number.isFinite(value)) return null;
      if (typeof value === 'string' && parseDateOperand(value) !== null) return null;
      return 'must be a date (YYYY-MM-DD), a date-time (ISO 8601 with Z or an offset) or epoch milliseconds';
  }
}

/** `YYYY-MM-DD` (a whole day) or an ISO 8601 date-time with a zone; null when neither. */
export function parseDateOperand(
  text: string,
):
  | { kind: 'day'; year: number; month: number; day: number }
  | { kind: 'instant'; ms: number }
  | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const check = new Date(Date.UTC(year, month - 1, date));
    if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1) return null;
    if (check.getUTCDate() !== date) return null;
    return { kind: 'day', year, month, day: date };
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) {
    return null;
  }
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : { kind: 'instant', ms };
}

export interface FilterGroup {
  operator: 'AND' | 'OR';
  conditions: (FilterCondition | FilterGroup)[];
}

export const FilterGroup: z.ZodType<FilterGroup, FilterGroup> = z.lazy(() =>
  z.object({
    operator: z.enum(['AND', 'OR']),
    conditions: z
      .array(z.union([FilterCondition, FilterGroup]))
      .min(1, 'needs at least one condition')
      .max(MAX_RULE_CONDITIONS),
  }),
);

export function isFilterGroup(node: FilterCondition | FilterGroup): node is FilterGroup {
  return 'operator' in node;
}

// ---------------------------------------------------------------------------------------------
// Configuration shapes.

export const RouterAccount = z.object({
  org_id: z.string().min(1).max(100),
  project: z.object({
    name: z.string().min(1).max(200),
    environment: z.string().min(1).max(100),
    id: z.string().min(1).max(100),
  }),
  /** Our addition: the zone in which date comparators (Today, Current week, a bare date) read days. */
  time_zone: z.string().min(1).max(100).default('UTC'),
});
export type RouterAccount = z.infer<typeof RouterAccount>;

export const SchemaKeyType = z.enum([
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'null',
]);

export const SchemaVersionView = z.object({
  version: z.number().int().positive(),
  schema: z.record(z.string(), z.unknown()),
  source: z.enum(['sample', 'capture', 'edit', 'publisher']),
  createdAt: z.number(),
});
export type SchemaVersionView = z.infer<typeof SchemaVersionView>;

/** A path of the current schema, for the condition builder. */
export const SchemaPathView = z.object({
  path: z.string(),
  type: ValueType.nullable(),
  jsonType: z.string(),
  format: z.string().nullable(),
  required: z.boolean(),
});
export type SchemaPathView = z.infer<typeof SchemaPathView>;

export const EventConfigView = z.object({
  id: RouterId,
  publisherId: RouterId,
  apiName: z.string(),
  /** A suite publisher's event: its scope (spec 000); null for platform and custom events. */
  scope: SuiteScope.nullable(),
  schemaVersion: z.number().int().nullable(),
  sample: z.unknown().nullable(),
  paths: z.array(SchemaPathView),
});
export type EventConfigView = z.infer<typeof EventConfigView>;

export const PublisherView = z.object({
  id: RouterId,
  name: z.string(),
  kind: PublisherKind,
  service: z.string(),
  status: PublisherStatus,
  /** The last four characters of the API key (custom publishers); the key itself is never kept. */
  apiKeyHint: z.string().nullable(),
  events: z.array(EventConfigView),
});
export type PublisherView = z.infer<typeof PublisherView>;

export const NameValue = z.object({
  name: z.string().min(1).max(200),
  value: z.string().max(2000),
});
export type NameValue = z.infer<typeof NameValue>;

/** RFC 9110 token characters: what a header name may hold (in a request and an answer alike). */
export const HTTP_HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may hold on the wire: no control characters but tab, nothing past Latin-1. */
export const HTTP_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * A target's header, checked as the webhook client checks it before sending: a name or a value
 * HTTP cannot carry was saved and then failed every delivery. A value's `{{path}}` placeholders
 * are filled from the event's data when sent, and checked again then.
 */
export const HeaderNameValue = z.object({
  name: NameValue.shape.name.regex(
    HTTP_HEADER_NAME,
    "a header name: letters, digits and !#$%&'*+-.^_`|~, no spaces or colons",
  ),
  value: NameValue.shape.value.regex(
    HTTP_HEADER_VALUE,
    'a header value: no line breaks or control characters, and only Latin-1 letters',
  ),
});

export const FaultMode = z.enum(['always_500', 'timeout', 'rate_limited', 'gone', 'flaky']);
export type FaultMode = z.infer<typeof FaultMode>;

export const FaultSettings = z.object({
  mode: FaultMode,
  /** flaky: the share of calls that fail with 500, 0-1 (failures spread evenly, reproducibly). */
  failureRate: z.number().min(0).max(1).default(0.5),
  /** rate_limited: the Retry-After it answers, in seconds. */
  retryAfterSeconds: z.number().int().min(0).max(86_400).default(30),
});
export type FaultSettings = z.infer<typeof FaultSettings>;

export const TargetKind = z.enum(['webhook', 'request_bin', 'fault']);
export type TargetKind = z.infer<typeof TargetKind>;
export const HttpMethod = z.enum(['POST', 'PUT', 'PATCH', 'GET', 'DELETE']);
export type HttpMethod = z.infer<typeof HttpMethod>;

export const TargetInput = z
  .object({
    id: RouterId.optional(),
    name: z.string().min(1).max(200),
    kind: TargetKind,
    status: TargetStatus.default('active'),
    url: z.string().max(2000).nullable().default(null),
    method: HttpMethod.default('POST'),
    headers: z
      .array(HeaderNameValue)
      .max(MAX_TARGET_HEADERS)
      // A request carries one value a header name (names ignore case): a second silently
      // replaced the first at every delivery.
      .superRefine((headers, ctx) => {
        const seen = new Set<string>();
        for (const [index, { name }] of headers.entries()) {
          const key = name.toLowerCase();
          if (seen.has(key)) {
            ctx.addIssue({
              code: 'custom',
              path: [index, 'name'],
              message: `the header ${name} is named twice (header names ignore case): keep one`,
            });
          }
          seen.add(key);
        }
      })
      .default([]),
    query: z.array(NameValue).max(MAX_TARGET_QUERY_PARAMS).default([]),
    rateLimitPerSecond: z
      .number()
      .int()
      .min(MIN_TARGET_RATE_PER_SECOND)
      .max(MAX_TARGET_RATE_PER_SECOND)
      .default(MAX_TARGET_RATE_PER_SECOND),
    timeoutMs: z
      .number()
      .int()
      .min(MIN_TARGET_TIMEOUT_MS)
      .max(MAX_TARGET_TIMEOUT_MS)
      .default(DEFAULT_TARGET_TIMEOUT_MS),
    fault: FaultSettings.nullable().default(null),
  })
  .superRefine((target, ctx) => {
    if (target.kind === 'webhook') {
      let url: URL | null = null;
      try {
        url = target.url ? new URL(target.url) : null;
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'a webhook needs an http(s) URL' });
      } else if (url.username !== '' || url.password !== '') {
        // They would never reach the target, and every attempt's recorded URL would show them.
        ctx.addIssue({
          code: 'custom',
          path: ['url'],
          message:
            'a webhook URL cannot carry a user name or password; send them in an Authorization header',
        });
      }
    }
    if (target.kind === 'fault' && !target.fault) {
      ctx.addIssue({ code: 'custom', path: ['fault'], message: 'a fault target needs its fault' });
    }
  });
export type TargetInput = z.input<typeof TargetInput>;
export type TargetConfig = z.output<typeof TargetInput>;

export const TargetView = z.object({
  id: RouterId,
  name: z.string(),
  kind: TargetKind,
  status: TargetStatus,
  url: z.string().nullable(),
  method: HttpMethod,
  headers: z.array(NameValue),
  query: z.array(NameValue),
  rateLimitPerSecond: z.number().int(),
  timeoutMs: z.number().int(),
  fault: FaultSettings.nullable(),
});
export type TargetView = z.infer<typeof TargetView>;

export const RuleInput = z.object({
  id: RouterId.optional(),
  name: z.string().min(1).max(200),
  status: RuleStatus.default('active'),
  retryCount: z.number().int().min(0).max(MAX_RETRY_COUNT).default(DEFAULT_RETRY_COUNT),
  eventConfigIds: z
    .array(RouterId)
    .min(1, 'a rule needs at least one event')
    .max(MAX_EVENTS_PER_RULE, `a rule has at most ${MAX_EVENTS_PER_RULE} events`),
  /** Null delivers all events. */
  filter: FilterGroup.nullable().default(null),
  targetIds: z
    .array(RouterId)
    .min(1, 'a rule needs at least one target')
    .max(MAX_TARGETS_PER_RULE, `a rule has at most ${MAX_TARGETS_PER_RULE} targets`),
});
export type RuleInput = z.input<typeof RuleInput>;
export type RuleConfig = z.output<typeof RuleInput>;

export const RuleView = z.object({
  id: RouterId,
  name: z.string(),
  status: RuleStatus,
  retryCount: z.number().int(),
  eventConfigIds: z.array(RouterId),
  filter: FilterGroup.nullable(),
  targetIds: z.array(RouterId),
  /** Virtual ms of the last change (the explanation flags rules changed after an event). */
  updatedAt: z.number(),
});
export type RuleView = z.infer<typeof RuleView>;

// ---------------------------------------------------------------------------------------------
// Events, executions, attempts, explanations.

export const ConditionExplanation = z.object({
  path: z.string(),
  type: ValueType,
  comparator: z.string(),
  expected: z.unknown(),
  actual: z.unknown(),
  matched: z.boolean(),
  /** Why it did not match when the value itself is the reason (missing, wrong type). */
  note: z.string().nullable(),
});
export type ConditionExplanation = z.infer<typeof ConditionExplanation>;

export interface GroupExplanation {
  operator: 'AND' | 'OR';
  matched: boolean;
  conditions: (ConditionExplanation | GroupExplanation)[];
}
export const GroupExplanation: z.ZodType<GroupExplanation, GroupExplanation> = z.lazy(() =>
  z.object({
    operator: z.enum(['AND', 'OR']),
    matched: z.boolean(),
    conditions: z.array(z.union([ConditionExplanation, GroupExplanation])),
  }),
);

export const RuleExplanation = z.object({
  ruleId: RouterId,
  ruleName: z.string(),
  ruleStatus: RuleStatus,
  matched: z.boolean(),
  deliverAll: z.boolean(),
  filter: GroupExplanation.nullable(),
  /** The rule changed after the event: the explanation uses its current conditions. */
  changedSince: z.boolean(),
});
export type RuleExplanation = z.infer<typeof RuleExplanation>;

export const HttpExchangePart = z.object({
  headers: z.record(z.string(), z.string()),
  body: z.string().nullable(),
});

export const AttemptView = z.object({
  attempt: z.number().int().positive(),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  request: HttpExchangePart.extend({ method: z.string(), url: z.string() }),
  response: HttpExchangePart.extend({ status: z.number().int() }).nullable(),
  /** Set when no HTTP answer came (timeout, refused connection), or the attempt was dropped. */
  error: z.string().nullable(),
  outcome: z.enum(['success', 'retry', 'failed', 'dropped', 'pending']),
});
export type AttemptView = z.infer<typeof AttemptView>;

export const ExecutionView = z.object({
  id: RouterId,
  ruleId: RouterId,
  targetId: RouterId,
  status: ExecutionStatus,
  nextAttemptAt: z.number().nullable(),
  attempts: z.array(AttemptView),
  note: z.string().nullable(),
});
export type ExecutionView = z.infer<typeof ExecutionView>;

export const EventSummaryView = z.object({
  id: RouterId,
  publisherId: RouterId,
  eventConfigId: RouterId,
  apiName: z.string(),
  status: OverallStatus,
  timeMs: z.number(),
  ruleIds: z.array(RouterId),
});
export type EventSummaryView = z.infer<typeof EventSummaryView>;

export const EventDetailView = EventSummaryView.extend({
  data: z.unknown(),
  version: z.number().int().nullable(),
  schemaErrors: z.array(z.string()),
  explanation: z.array(RuleExplanation),
  executions: z.array(ExecutionView),
  redeliveryOf: RouterId.nullable(),
});
export type EventDetailView = z.infer<typeof EventDetailView>;

export const EventListQuery = z.object({
  status: OverallStatus.optional(),
  publisherId: RouterId.optional(),
  ruleId: RouterId.optional(),
  /** Virtual epoch ms, inclusive. */
  fromMs: z.number().optional(),
  toMs: z.number().optional(),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(500).default(100),
});
export type EventListQuery = z.input<typeof EventListQuery>;

export const BinEntryView = z.object({
  id: z.number().int(),
  targetId: RouterId,
  receivedAt: z.number(),
  method: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  /** Headers not kept: past MAX_BIN_HEADERS or MAX_BIN_HEADER_BYTES (the attempt has them all). */
  headersOmitted: z.number().int().min(0),
  body: z.string().nullable(),
});
export type BinEntryView = z.infer<typeof BinEntryView>;

export const RouterOverview = z.object({
  account: RouterAccount,
  ingressUrl: z.string().nullable(),
  clock: z.object({ nowMs: z.number(), scale: z.number() }),
  publishers: z.array(PublisherView),
  rules: z.array(RuleView),
  targets: z.array(TargetView),
});
export type RouterOverview = z.infer<typeof RouterOverview>;

const Json = z.unknown();

export const routerRequests = {
  'router.overview': request(
    NoArgs,
    RouterOverview,
    'Account, ingress address, clock, publishers with their events, rules and targets.',
  ),
  'router.startIngress': request(
    NoArgs,
    z.object({ url: z.string() }),
    'Starts the ingress for custom publishers on 127.0.0.1 if it is not running; returns its address.',
  ),
  'router.setAccount': request(RouterAccount, RouterAccount, 'The account every payload names.'),
  'router.createPublisher': request(
    z.object({ name: z.string().min(1).max(200) }),
    z.object({ publisher: PublisherView, apiKey: z.string() }),
    'A custom publisher; its API key is returned this once and stored hashed.',
  ),
  'router.rotateApiKey': request(
    z.object({ publisherId: RouterId }),
    z.object({ apiKey: z.string() }),
    'A new API key for a custom publisher (shown once); the old one stops working.',
  ),
  'router.setPublisherStatus': request(
    z.object({ id: RouterId, status: PublisherStatus }),
    PublisherView,
    'Activate or deactivate a publisher.',
  ),
  'router.createEvent': request(
    z.object({ publisherId: RouterId, apiName: EventApiName, sample: Json.optional() }),
    EventConfigView,
    "A custom publisher's event; a sample (a JSON object) generates its first schema.",
  ),
  'router.schemaVersions': request(
    z.object({ eventConfigId: RouterId }),
    z.array(SchemaVersionView),
    "Every version of an event's schema, newest first.",
  ),
  'router.setSample': request(
    z.object({
      eventConfigId: RouterId,
      sample: Json,
      merge: z.boolean().default(false),
      /**
       * The sample's key paths the user ticked as required; every other key of the sample is
       * optional (issue 19). Left out: the required choices stay as they were.
       */
      required: z.array(DataPath).max(MAX_SCHEMA_KEYS).optional(),
    }),
    SchemaVersionView,
    'A new schema version inferred from a sample (merged into the current one if asked); its keys are optional unless listed in required.',
  ),
  'router.editSchemaKeys': request(
    z.object({
      eventConfigId: RouterId,
      add: z
        .array(
          z.object({ path: DataPath, type: SchemaKeyType, required: z.boolean().default(false) }),
        )
        .max(MAX_SCHEMA_KEYS)
        .default([]),
      remove: z.array(DataPath).max(MAX_SCHEMA_KEYS).default([]),
      /** Keys of the schema made required or optional (issue 19). */
      require: z
        .array(z.object({ path: DataPath, required: z.boolean() }))
        .max(MAX_SCHEMA_KEYS)
        .default([]),
    }),
    SchemaVersionView,
    'Add or remove keys, or change whether a key is required, by hand; saved as a new schema version.',
  ),
  'router.validateSample': request(
    z.object({ eventConfigId: RouterId, sample: Json }),
    z.object({
      valid: z.boolean(),
      version: z.number().int().nullable(),
      errors: z.array(z.string()),
    }),
    "Checks a sample against the event's current schema.",
  ),
  'router.startCapture': request(
    z.object({ eventConfigId: RouterId }),
    z.object({ url: z.string(), expiresAt: z.number(), nowMs: z.number() }),
    'A live capture URL, valid 15 minutes: JSON posted to it is merged into the schema.',
  ),
  'router.saveRule': request(RuleInput, RuleView, 'Create (no id) or replace a rule.'),
  'router.setRuleStatus': request(
    z.object({ id: RouterId, status: RuleStatus }),
    RuleView,
    'Change a rule’s status (active, inactive, disabled, deleted).',
  ),
  'router.saveTarget': request(TargetInput, TargetView, 'Create (no id) or replace a target.'),
  'router.setTargetStatus': request(
    z.object({ id: RouterId, status: TargetStatus }),
    TargetView,
    'Change a target’s status (active, inactive, disabled, deleted).',
  ),
  'router.listEvents': request(
    EventListQuery,
    z.object({ total: z.number().int(), rows: z.array(EventSummaryView) }),
    'Received events, newest first, filtered by status, publisher, rule and time.',
  ),
  'router.getEvent': request(
    z.object({ id: RouterId }),
    EventDetailView,
    'One event: overall status, executions with attempts, and the explanation.',
  ),
  'router.redeliver': request(
    z.object({ id: RouterId }),
    z.object({ id: RouterId }),
    "Routes a stored event's data again as a new event (linked to the original).",
  ),
  'router.sendTestEvent': request(
    z.object({ eventConfigId: RouterId }),
    z.object({ id: RouterId }),
    "Publishes the event's sample as a new event.",
  ),
  'router.requestBin': request(
    z.object({ targetId: RouterId, limit: z.number().int().min(1).max(500).default(100) }),
    z.array(BinEntryView),
    'What a request-bin target received, newest first.',
  ),
} as const;

export const routerEvents = {
  /** Something in the sandbox changed; `events` when only deliveries moved (coalesced). */
  'router.changed': z.object({ config: z.boolean(), events: z.boolean() }),
} as const;
