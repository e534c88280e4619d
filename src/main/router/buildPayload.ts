import type { RouterAccount } from '../../shared/contracts/router';

export interface PayloadEvent {
  id: string;
  data: Record<string, unknown>;
  timeMs: number;
  publisherId: string;
  service: string;
  eventConfigId: string;
  apiName: string;
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
export function buildPayload(input: {
  ruleId: string;
  targetId: string;
  version: number | null;
  attempt: number;
  account: RouterAccount;
  event: PayloadEvent;
}): DeliveredPayload {
  const { account, event } = input;
  return {
    rule_id: input.ruleId,
    target_id: input.targetId,
    version: input.version ?? 1,
    attempt: input.attempt,
    account: {
      org_id: account.org_id,
      project: {
        name: account.project.name,
        environment: account.project.environment,
        id: account.project.id,
      },
    },
    events: [
      {
        data: event.data,
        id: event.id,
        time_in_ms: Math.trunc(event.timeMs),
        source: `${event.publisherId}/${event.service}/${account.org_id}`,
        event_config: { id: event.eventConfigId, api_name: event.apiName },
      },
    ],
  };
}
