/**
 * The record PATCH budget of a portal as the request scheduler sees it now, for a bulk edit's
 * ETA: the key the replay's PATCHes spend from (the client's own key for `updateEntity`, which names
 * only the route's template and the portal, so the placeholders below do not matter), read
 * from the scheduler's report. Undefined when the portal has no client or the key was never used.
 */
import type { ApiClient } from '../api/client/apiClient';
import type { EndpointBudgetReport } from '../api/requestScheduler';
import type { EtaBudget } from './bulkEta';

export function patchBudget(
  client: ApiClient | undefined,
  report: () => readonly EndpointBudgetReport[],
  portalId: string,
): EtaBudget | undefined {
  if (!client) return undefined;
  const key = client.endpointKey('updateEntity', {
    portal_id: portalId,
    scope_path: 'x',
    module_api_name: 'x',
    entity_id: 'x',
    body: {},
  });
  const budget = report().find((r) => r.key === key);
  return budget
    ? { limit: budget.limit, windowMs: budget.windowMs, remaining: budget.remaining }
    : undefined;
}
