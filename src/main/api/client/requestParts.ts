/**
 * Pure pieces of a request, from an endpoint's table row, the service profile and the caller's
 * arguments: the URL (path segments and the comment segment percent-encoded, `filter` as
 * URL-encoded JSON), the body (JSON, or form fields for the backup), and the rate limit's
 * endpoint key.
 */
import { FIRST_PAGE, PER_PAGE_DEFAULT } from '@portaldesk/portal-api/domain/limits';
import { apiBaseUrl, type ServiceProfile } from '@portaldesk/portal-api/serviceProfile';
import { COMMENT_SEGMENT_PARAM, type BodyKind, type EndpointSpec } from './endpoints';

export interface CallArgs {
  query?: object;
  body?: unknown;
  [param: string]: unknown;
}

/** The route with the profile's prefix and comment segment, parameters left as `{...}`. */
export function routeTemplate(profile: ServiceProfile, spec: EndpointSpec): string {
  return `${profile.apiPrefix}${spec.route.replaceAll(`{${COMMENT_SEGMENT_PARAM}}`, profile.commentSegment)}`;
}

/** `PATCH /api/v3/portal/{portal_id}/.../entities/{entity_id}`: how errors and logs name it. */
export function endpointLabel(profile: ServiceProfile, spec: EndpointSpec): string {
  return `${spec.method} ${routeTemplate(profile, spec)}`;
}

/**
 * "counted per API endpoint": data center + method + route TEMPLATE + portal id, written as the
 * emulator's statistics write it (`us GET /api/v3/portal/{portal_id}/bin portal=123`).
 */
export function endpointKey(
  profile: ServiceProfile,
  dc: string,
  spec: EndpointSpec,
  args: CallArgs,
): string {
  const portal = typeof args.portal_id === 'string' ? ` portal=${args.portal_id}` : '';
  return `${dc} ${spec.method} ${routeTemplate(profile, spec)}${portal}`;
}

/** The path after the API prefix, each parameter percent-encoded as one segment. */
export function renderPath(profile: ServiceProfile, spec: EndpointSpec, args: CallArgs): string {
  return spec.route.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === COMMENT_SEGMENT_PARAM) return encodeURIComponent(profile.commentSegment);
    const value = args[name];
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`${spec.method} ${spec.route} needs ${name} (a non-empty string).`);
    }
    return encodeURIComponent(value);
  });
}

type QueryValue = string | number | boolean | object | null | undefined;

/** Query values as text: objects (filters) as JSON, booleans as true/false. */
function queryText(value: Exclude<QueryValue, null | undefined>): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The query with the paging the spec marks required filled in. Built with encodeURIComponent
 * rather than URLSearchParams, whose `+` for a space a server may not read as one.
 */
export function renderQuery(spec: EndpointSpec, query: object | undefined): string {
  const values: Record<string, QueryValue> = { ...(query as Record<string, QueryValue>) };
  const paging = spec.paging ?? 'optional';
  if (paging !== 'optional') {
    values.page ??= FIRST_PAGE;
    values.per_page ??= PER_PAGE_DEFAULT;
  }
  if (paging === 'page+index') {
    // Ours: the same window as v2's offset paging (index = records before the page).
    const perPage = Number(values.per_page);
    values.index ??= (Number(values.page) - 1) * perPage;
    values.range ??= perPage;
  }
  const parts: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(queryText(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

export function requestUrl(
  profile: ServiceProfile,
  dc: string,
  spec: EndpointSpec,
  args: CallArgs,
): string {
  return `${apiBaseUrl(profile, dc)}${renderPath(profile, spec, args)}${renderQuery(spec, args.query)}`;
}

export interface EncodedBody {
  body: string | undefined;
  contentType: string | undefined;
}

/** JSON bodies, or `application/x-www-form-urlencoded` for form fields (the backup's access_code). */
export function encodeBody(kind: BodyKind, body: unknown): EncodedBody {
  if (kind === 'none' || body === undefined) return { body: undefined, contentType: undefined };
  if (kind === 'json') {
    return { body: JSON.stringify(body), contentType: 'application/json;charset=UTF-8' };
  }
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return { body: form.toString(), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
}
