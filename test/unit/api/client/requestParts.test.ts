import { describe, expect, it } from 'vitest';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../../../src/main/api/client/endpoints';
import {
  encodeBody,
  endpointKey,
  endpointLabel,
  requestUrl,
} from '../../../../src/main/api/client/requestParts';
import { requiredScopes } from '../../../../src/main/api/client/requiredScopes';
import { RECORDS, testProfile } from './fakes';

/** Every row of every endpoint table of the spec, `{...}` for any parameter. */
const SPEC_ROWS = [
  'GET /portals',
  'GET /portal/{}',
  'POST /portal/{}/portal_export',
  'GET /portal/{}/portal_export/{}/status',
  'GET /portal/{}/portal_export/history',
  'GET /portal/{}/bin',
  'POST /portal/{}/trash',
  'DELETE /portal/{}/bin',
  'POST /portal/{}/bin/restore',
  'DELETE /portal/{}/empty-bin',
  'GET /portal/{}/{}/{}/fields',
  'GET /portal/{}/settings/modules',
  'GET /portal/{}/settings/modules/{}',
  'POST /portal/{}/settings/modules',
  'PATCH /portal/{}/settings/modules/{}',
  'PATCH /portal/{}/settings/modules/{}/activate',
  'PATCH /portal/{}/settings/modules/{}/deactivate',
  'DELETE /portal/{}/settings/modules/{}',
  'DELETE /portal/{}/settings/modules/bin/{}',
  'POST /portal/{}/settings/modules/bin/{}/recover',
  'GET /portal/{}/settings/fields-configuration',
  'GET /portal/{}/settings/layouts',
  'GET /portal/{}/settings/layouts/default-layout',
  'GET /portal/{}/settings/layouts/{}',
  'POST /portal/{}/settings/layouts',
  'PATCH /portal/{}/settings/layouts/{}',
  'DELETE /portal/{}/settings/layouts/{}',
  'DELETE /portal/{}/settings/layouts/{}/fields/{}',
  'GET /portal/{}/settings/layouts/{}/associated-entities',
  'PUT /portal/{}/settings/layouts/{}/sections',
  'DELETE /portal/{}/settings/layouts/{}/sections/{}',
  'GET /portal/{}/settings/fields',
  'PUT /portal/{}/settings/fields',
  'DELETE /portal/{}/settings/fields/{}',
  'GET /portal/{}/settings/fields/{}/associated-layouts',
  'GET /portal/{}/settings/options',
  'POST /portal/{}/settings/options',
  'PATCH /portal/{}/settings/options',
  'DELETE /portal/{}/settings/options',
  'GET /portal/{}/integration-field/service',
  'GET /portal/{}/integration-field/service/{}/modules',
  'GET /portal/{}/integration-field/service/{}/{}/{}/fields',
  'GET /portal/{}/{}/{}/entities',
  'GET /portal/{}/{}/{}/entities/{}',
  'POST /portal/{}/{}/{}/entities',
  'PATCH /portal/{}/{}/{}/entities/{}',
  'POST /portal/{}/{}/{}/entities/{}/trash',
  'POST /portal/{}/{}/{}/entities/{}/restore',
  'DELETE /portal/{}/{}/{}/entities/{}',
  'GET /portal/{}/{}/{}/entity/{}/status-timeline',
  'GET /portal/{}/{}/{}/entities/20',
  'GET /portal/{}/{}/{}/entity/{}/{comment_segment}',
  'GET /portal/{}/{}/{}/entity/{}/{comment_segment}/{}',
  'POST /portal/{}/{}/{}/entity/{}/{comment_segment}',
  'PATCH /portal/{}/{}/{}/entity/{}/{comment_segment}/{}',
  'DELETE /portal/{}/{}/{}/entity/{}/{comment_segment}/{}',
  'GET /portal/{}/{}/{}/entity/{}/commentscount',
];

/** Arguments for any route: each parameter named after itself. */
function argsFor(route: string): Record<string, string> {
  return Object.fromEntries(
    [...route.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, `${name}`]),
  );
}

describe('the endpoint table', () => {
  it('has exactly one function per row of the spec, no more, no fewer', () => {
    const rows = ENDPOINT_NAMES.map((name) => {
      const { method, route } = ENDPOINTS[name];
      return `${method} ${route.replace(/\{(?!comment_segment)\w+\}/g, '{}')}`;
    });
    expect(new Set(rows).size).toBe(rows.length);
    expect([...rows].sort()).toEqual([...SPEC_ROWS].sort());
  });

  it('builds a URL for every endpoint under the profile prefix, with no parameter left over', () => {
    const profile = testProfile();
    for (const name of ENDPOINT_NAMES) {
      const spec = ENDPOINTS[name];
      const url = requestUrl(profile, 'us', spec, argsFor(spec.route));
      expect(url.startsWith('https://api.us.test/api/v3/'), name).toBe(true);
      expect(url, name).not.toMatch(/[{}]/);
    }
  });

  it('asks at sign-in for every scope the endpoints need, with the profile prefixes', () => {
    expect(requiredScopes(testProfile())).toEqual([
      'PMS.custom_fields.CREATE',
      'PMS.custom_fields.DELETE',
      'PMS.custom_fields.READ',
      'PMS.custom_fields.UPDATE',
      'PMS.portals.CREATE',
      'PMS.portals.DELETE',
      'PMS.portals.READ',
      'PMS.portals.UPDATE',
      'PMSFiles.files.READ',
    ]);
    expect(
      requiredScopes(testProfile({ scopePrefixes: { api: 'XY', files: 'XYF' } }), [
        'scheduleBackup',
      ]),
    ).toEqual(['XY.portals.READ', 'XYF.files.READ']);
  });
});

describe('request URLs', () => {
  const profile = testProfile();

  it('send the comment segment percent-encoded as one literal segment', () => {
    const url = requestUrl(profile, 'us', ENDPOINTS.getComment, {
      ...RECORDS,
      entity_id: '5',
      comment_id: '6',
    });
    expect(url).toBe(
      'https://api.us.test/api/v3/portal/100/projects/assets/entity/5/record%20comments/6',
    );
    const other = testProfile({ commentSegment: 'case notes&more' });
    expect(requestUrl(other, 'us', ENDPOINTS.listComments, { ...RECORDS, entity_id: '5' })).toBe(
      'https://api.us.test/api/v3/portal/100/projects/assets/entity/5/case%20notes%26more',
    );
  });

  it('send the filter as URL-encoded JSON and sort_by as written', () => {
    const filter = {
      criteria: [
        { field_name: 'name', criteria_condition: 'contains', value: ['a b&c'] },
        {
          field_name: 'last_updated_time',
          criteria_condition: 'greater_than_or_equal',
          value: ['2024-05-01'],
        },
      ],
      pattern: '1 AND 2',
    };
    const url = new URL(
      requestUrl(profile, 'us', ENDPOINTS.listEntities, {
        ...RECORDS,
        query: { filter, sort_by: 'ASC(last_updated_time)', page: 2, per_page: 200 },
      }),
    );
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual(filter);
    expect(url.searchParams.get('sort_by')).toBe('ASC(last_updated_time)');
    expect(url.search).toContain('filter=%7B%22criteria%22');
    // No `+` for spaces: a server need not read form encoding in a query.
    expect(url.search).not.toContain('+');
    expect(url.search).toContain('a%20b%26c');
    expect(url.searchParams.get('page')).toBe('2');
  });

  it('percent-encode path parameters, so an id cannot change the path', () => {
    const url = requestUrl(profile, 'us', ENDPOINTS.getEntity, { ...RECORDS, entity_id: '1/../2' });
    expect(url).toBe('https://api.us.test/api/v3/portal/100/projects/assets/entities/1%2F..%2F2');
  });

  it('refuse a missing path parameter before anything is sent', () => {
    expect(() => requestUrl(profile, 'us', ENDPOINTS.getEntity, { ...RECORDS })).toThrow(
      /needs entity_id/,
    );
  });

  it('fill the paging the spec marks required, and index/range for options', () => {
    const modules = new URL(requestUrl(profile, 'us', ENDPOINTS.listModules, { portal_id: '1' }));
    expect(modules.searchParams.get('page')).toBe('1');
    expect(modules.searchParams.get('per_page')).toBe('100');
    const options = new URL(
      requestUrl(profile, 'us', ENDPOINTS.listFieldOptions, {
        portal_id: '1',
        query: { module: 'assets', field: 'cf_tags', page: 3, per_page: 50 },
      }),
    );
    expect(Object.fromEntries(options.searchParams)).toEqual({
      module: 'assets',
      field: 'cf_tags',
      page: '3',
      per_page: '50',
      index: '100',
      range: '50',
    });
    const entities = new URL(requestUrl(profile, 'us', ENDPOINTS.listEntities, RECORDS));
    expect(entities.search).toBe('');
  });

  it('go to the data center asked for, and name unknown ones', () => {
    expect(requestUrl(profile, 'eu', ENDPOINTS.listPortals, {})).toBe(
      'https://api.eu.test/api/v3/portals',
    );
    expect(() => requestUrl(profile, 'jp', ENDPOINTS.listPortals, {})).toThrow(
      /no data center "jp"; it knows us, eu, sg/,
    );
  });
});

describe('endpoint keys', () => {
  const profile = testProfile();

  it('are data center + method + route template + portal, as the emulator counts them', () => {
    expect(endpointKey(profile, 'us', ENDPOINTS.getEntity, { ...RECORDS, entity_id: '7' })).toBe(
      'us GET /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entities/{entity_id} portal=100',
    );
    expect(endpointKey(profile, 'eu', ENDPOINTS.listPortals, {})).toBe('eu GET /api/v3/portals');
    expect(endpointKey(profile, 'us', ENDPOINTS.listComments, { ...RECORDS, entity_id: '7' })).toBe(
      'us GET /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entity/{entity_id}/record comments portal=100',
    );
  });

  it('differ by method, by template, by portal and by data center, and not by record', () => {
    const key = (dc: string, name: keyof typeof ENDPOINTS, portal: string, entity = '1') =>
      endpointKey(profile, dc, ENDPOINTS[name], {
        ...RECORDS,
        portal_id: portal,
        entity_id: entity,
      });
    expect(key('us', 'getEntity', '100', '1')).toBe(key('us', 'getEntity', '100', '2'));
    const distinct = [
      key('us', 'getEntity', '100'),
      key('us', 'updateEntity', '100'),
      key('us', 'countEntities', '100'),
      key('us', 'getEntity', '101'),
      key('eu', 'getEntity', '100'),
    ];
    expect(new Set(distinct).size).toBe(distinct.length);
  });

  it('label errors with the method and template', () => {
    expect(endpointLabel(profile, ENDPOINTS.countEntities)).toBe(
      'GET /api/v3/portal/{portal_id}/{scope_path}/{module_api_name}/entities/20',
    );
  });
});

describe('request bodies', () => {
  it('are JSON by default', () => {
    expect(encodeBody('json', { name: 'x', items: ['1'] })).toEqual({
      body: '{"name":"x","items":["1"]}',
      contentType: 'application/json;charset=UTF-8',
    });
    expect(encodeBody('none', { ignored: true })).toEqual({
      body: undefined,
      contentType: undefined,
    });
  });

  it('are form fields for the backup access code', () => {
    const encoded = encodeBody('form', { access_code: 'p@ss word&1=2', attachment_needed: true });
    expect(encoded.contentType).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(Object.fromEntries(new URLSearchParams(encoded.body))).toEqual({
      access_code: 'p@ss word&1=2',
      attachment_needed: 'true',
    });
  });
});
