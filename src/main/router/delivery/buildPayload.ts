import type { RouterAccount } from '../../../shared/ipc/areas/router';

export interface PayloadEvent {
  id: string;
  data: Record<string, unknown>;
  timeMs: number;
  publisherId: string;
  service: string;
  eventConfigId: string;
  apiName: string;
  /** payloadJson's copy of this event's part of the payload (the same for every delivery). */
  json?: { orgId: string; text: string };
}

export interface DeliveredPayload {
  rule_id: string;
  target_id: string;
  version: number;
  attempt: number;
  account: { org_id: string; project: { name: string; environment: string; id: string } };
  events: {
    data: Record<string, unknown>;
    id: string;
    time_in_ms: number;
    source: string;
    event_config: { id: string; api_name: string };
  }[];
}

/**
 * The body a target receives (spec 000, "Delivered event payload"), in the spec's field order.
 * `source` is "publisher id / service name / the service's account id"; the account id is the
 * account's org_id. A schema-less event is version 1 (the spec's version names the schema's).
 */
export interface PayloadInput {
  ruleId: string;
  targetId: string;
  version: number | null;
  attempt: number;
  account: RouterAccount;
  event: PayloadEvent;
}

export function buildPayload(input: PayloadInput): DeliveredPayload {
  const { account } = input;
  return {
    rule_id: input.ruleId,
    target_id: input.targetId,
    version: input.version ?? 1,
    attempt: input.attempt,
    account: accountPart(account),
    events: [eventPart(input.event, account)],
  };
}

const accountPart = (account: RouterAccount): DeliveredPayload['account'] => ({
  org_id: account.org_id,
  project: {
    name: account.project.name,
    environment: account.project.environment,
    id: account.project.id,
  },
});

const eventPart = (event: PayloadEvent, account: RouterAccount): DeliveredPayload['events'][0] => ({
  data: event.data,
  id: event.id,
  time_in_ms: Math.trunc(event.timeMs),
  source: `${event.publisherId}/${event.service}/${account.org_id}`,
  event_config: { id: event.eventConfigId, api_name: event.apiName },
});

let accountJson: { account: RouterAccount; text: string } | null = null;

/**
 * `JSON.stringify(buildPayload(input))`, character for character, without serialising the
 * event's data again for each of its deliveries and attempts: that part is kept on the event.
 */
export function payloadJson(input: PayloadInput): string {
  const { account, event } = input;
  if (accountJson?.account !== account) {
    accountJson = { account, text: JSON.stringify(accountPart(account)) };
  }
  if (event.json?.orgId !== account.org_id) {
    event.json = { orgId: account.org_id, text: JSON.stringify(eventPart(event, account)) };
  }
  return `{"rule_id":${JSON.stringify(input.ruleId)},"target_id":${JSON.stringify(input.targetId)},"version":${JSON.stringify(input.version ?? 1)},"attempt":${JSON.stringify(input.attempt)},"account":${accountJson.text},"events":[${event.json.text}]}`;
}
