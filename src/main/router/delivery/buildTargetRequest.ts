import type { TargetView } from '../../../shared/ipc/areas/router';
import { dictionary } from '@portaldesk/portal-api/json/dictionary';
import { renderTemplate } from './renderTemplate';

export interface TargetRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Null for GET, which carries no body. */
  body: string | null;
}

export const ROUTER_USER_AGENT = 'PortalDesk-EventRouter/1';

/**
 * The HTTP request a target gets: the payload's JSON (GET carries none), the target's headers
 * and query parameters with `{{path}}` filled from the event's data. Request bins and fault
 * targets are addressed as `sandbox://<kind>/<target id>`.
 */
export function buildTargetRequest(
  target: TargetView,
  payloadJson: string,
  data: unknown,
): TargetRequest {
  // Header names are the user's: `__proto__` must be a header, not the object's prototype.
  const headers = dictionary<string>({
    'content-type': 'application/json',
    'user-agent': ROUTER_USER_AGENT,
  });
  for (const header of target.headers) {
    headers[header.name.toLowerCase()] = renderTemplate(header.value, data);
  }
  let url =
    target.kind === 'webhook' && target.url ? target.url : `sandbox://${target.kind}/${target.id}`;
  if (target.query.length > 0) {
    const parsed = new URL(url);
    for (const param of target.query) {
      parsed.searchParams.append(param.name, renderTemplate(param.value, data));
    }
    url = parsed.toString();
  }
  const body = target.method === 'GET' ? null : payloadJson;
  if (body === null) delete headers['content-type'];
  return { method: target.method, url, headers, body };
}
