/**
 * Integration fields (spec "Integration fields", scope PMS.custom_fields.READ): the services a
 * portal is integrated with, their modules, and the fields of a module that can be shown in a
 * project. The spec shows no service; ours is a fixed catalog, the same in every portal: a CRM
 * and a help desk.
 */
import { apiErrors } from '../http/apiError';
import type { ApiRequest, Route } from '../http/types';
import type { EmulatorState } from '../state';
import { portalProjects } from '../settings/lookups';
import { paginate, parseId, readPage, requirePortal } from './common';

const PREFIX = '/api/v3/portal/{portal_id}/integration-field/service';
const READ = ['PMS.custom_fields.READ'];

interface CatalogField {
  id: string;
  api_name: string;
  display_name: string;
  field_type: string;
  data_type: string;
}

interface CatalogModule {
  id: string;
  api_name: string;
  singular_name: string;
  plural_name: string;
  fields: readonly CatalogField[];
}

interface CatalogService {
  id: string;
  name: string;
  service_type: string;
  is_enabled: boolean;
  modules: readonly CatalogModule[];
}

const field = (
  id: string,
  api_name: string,
  display_name: string,
  field_type: string,
  data_type: string,
) => ({
  id,
  api_name,
  display_name,
  field_type,
  data_type,
});

/** The integrated services; ids are fixed so tests and the demo can name them. */
export const INTEGRATION_SERVICES: readonly CatalogService[] = [
  {
    id: '900000000001',
    name: 'CRM',
    service_type: 'crm',
    is_enabled: true,
    modules: [
      {
        id: '900000000101',
        api_name: 'Leads',
        singular_name: 'Lead',
        plural_name: 'Leads',
        fields: [
          field('900000001001', 'Full_Name', 'Full name', 'single_line', 'string'),
          field('900000001002', 'Email', 'Email', 'email', 'email'),
          field('900000001003', 'Lead_Source', 'Lead source', 'pick_list', 'picklist'),
          field('900000001004', 'Annual_Revenue', 'Annual revenue', 'currency', 'currency'),
        ],
      },
      {
        id: '900000000102',
        api_name: 'Accounts',
        singular_name: 'Account',
        plural_name: 'Accounts',
        fields: [
          field('900000001011', 'Account_Name', 'Account name', 'single_line', 'string'),
          field('900000001012', 'Website', 'Website', 'url', 'url'),
          field('900000001013', 'Employees', 'Employees', 'number', 'long'),
        ],
      },
      {
        id: '900000000103',
        api_name: 'Deals',
        singular_name: 'Deal',
        plural_name: 'Deals',
        fields: [
          field('900000001021', 'Deal_Name', 'Deal name', 'single_line', 'string'),
          field('900000001022', 'Amount', 'Amount', 'currency', 'currency'),
          field('900000001023', 'Closing_Date', 'Closing date', 'date', 'date'),
          field('900000001024', 'Stage', 'Stage', 'pick_list', 'picklist'),
        ],
      },
    ],
  },
  {
    id: '900000000002',
    name: 'Help Desk',
    service_type: 'desk',
    is_enabled: true,
    modules: [
      {
        id: '900000000201',
        api_name: 'tickets',
        singular_name: 'Ticket',
        plural_name: 'Tickets',
        fields: [
          field('900000002001', 'subject', 'Subject', 'single_line', 'string'),
          field('900000002002', 'priority', 'Priority', 'pick_list', 'picklist'),
          field('900000002003', 'due_date', 'Due date', 'timestamp', 'datetime'),
          field('900000002004', 'is_escalated', 'Escalated', 'check_box', 'boolean'),
        ],
      },
      {
        id: '900000000202',
        api_name: 'contacts',
        singular_name: 'Contact',
        plural_name: 'Contacts',
        fields: [
          field('900000002011', 'last_name', 'Last name', 'single_line', 'string'),
          field('900000002012', 'phone', 'Phone', 'phone', 'phone'),
        ],
      },
    ],
  },
];

function requireService(request: ApiRequest): CatalogService {
  const id = String(parseId(request.params.service_id, 'service_id'));
  const service = INTEGRATION_SERVICES.find((candidate) => candidate.id === id);
  if (!service) throw apiErrors.notFound(`Integrated service ${id}`);
  return service;
}

/** Module by api name (case-insensitive, as the CRM's are capitalised) or id. */
function requireCatalogModule(service: CatalogService, key: string | undefined): CatalogModule {
  const lower = (key ?? '').toLowerCase();
  const module = service.modules.find((m) => m.id === key || m.api_name.toLowerCase() === lower);
  if (!module) throw apiErrors.notFound(`Module ${key ?? ''} of service ${service.name}`);
  return module;
}

function checkScope(state: EmulatorState, portalId: number, scopePath: string | undefined): void {
  if (scopePath === 'projects') return;
  if (!scopePath || !/^\d+$/.test(scopePath)) {
    throw apiErrors.invalidParameter(
      `scope_path must be projects or a project id, not ${JSON.stringify(scopePath ?? '')}.`,
    );
  }
  const projectId = parseId(scopePath, 'scope_path');
  if (!portalProjects(state, portalId).has(projectId))
    throw apiErrors.notFound(`Project ${projectId}`);
}

const serviceView = (service: CatalogService) => ({
  id: service.id,
  name: service.name,
  service_type: service.service_type,
  is_enabled: service.is_enabled,
  module_count: service.modules.length,
});

const moduleView = (module: CatalogModule) => ({
  id: module.id,
  api_name: module.api_name,
  singular_name: module.singular_name,
  plural_name: module.plural_name,
});

export const integrationRoutes: Route[] = [
  {
    method: 'GET',
    template: PREFIX,
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      requirePortal(state, request);
      const { items, page_info } = paginate(INTEGRATION_SERVICES, readPage(request.query));
      return { body: { services: items.map(serviceView), page_info } };
    },
  },
  {
    method: 'GET',
    template: `${PREFIX}/{service_id}/modules`,
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      requirePortal(state, request);
      const service = requireService(request);
      const { items, page_info } = paginate(service.modules, readPage(request.query));
      return { body: { service: serviceView(service), modules: items.map(moduleView), page_info } };
    },
  },
  {
    method: 'GET',
    template: `${PREFIX}/{service_id}/{scope_path}/{module_id}/fields`,
    kind: 'api',
    scopes: READ,
    handle: (request, state) => {
      const portal = requirePortal(state, request);
      const service = requireService(request);
      checkScope(state, portal.id, request.params.scope_path);
      const module = requireCatalogModule(service, request.params.module_id);
      const { items, page_info } = paginate(module.fields, readPage(request.query));
      return { body: { module: moduleView(module), fields: items, page_info } };
    },
  },
];
