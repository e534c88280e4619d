/**
 * Integration fields (spec "Integration fields"): the services a portal is integrated with, their
 * modules and a module's fields, read from the service through the request scheduler at the
 * user's priority, never kept (browsing only). Offline or signed out, each read is refused in words.
 */
import type { ApiClient } from '../api/client/apiClient';
import { ALL_PROJECTS } from '../api/client/endpoints';
import { collectAll } from '../api/client/paginate';

/** A read that could not happen; the message says why and what to do. */
export class IntegrationUnavailable extends Error {
  override name = 'IntegrationUnavailable';
}

const CALL = { priority: 'user' } as const;

export class IntegrationFields {
  constructor(private readonly clientFor: (portalId: string) => ApiClient | undefined) {}

  private client(portalId: string): ApiClient {
    const client = this.clientFor(portalId);
    if (!client) {
      throw new IntegrationUnavailable(
        'The account that reaches this portal is signed out; sign in again to browse its integrations.',
      );
    }
    return client;
  }

  private async read<T>(what: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new IntegrationUnavailable(
        `The ${what} could not be read from the service (${reason}). Integrations are read online only; try again when connected.`,
      );
    }
  }

  async services(portalId: string) {
    const client = this.client(portalId);
    const services = await this.read('integrated services', () =>
      collectAll(client.listIntegrationServices, { portal_id: portalId }, CALL),
    );
    return services.map((service) => ({
      id: service.id,
      name: service.name,
      type: service.service_type,
      enabled: service.is_enabled,
      modules: service.module_count ?? null,
    }));
  }

  async modules(portalId: string, serviceId: string) {
    const client = this.client(portalId);
    const modules = await this.read("service's modules", () =>
      collectAll(
        client.listIntegrationModules,
        { portal_id: portalId, service_id: serviceId },
        CALL,
      ),
    );
    return modules.map((module) => ({
      id: module.id,
      apiName: module.api_name,
      name: module.plural_name ?? module.singular_name ?? module.api_name,
    }));
  }

  async fields(portalId: string, serviceId: string, moduleId: string) {
    const client = this.client(portalId);
    const fields = await this.read("module's fields", () =>
      collectAll(
        client.listIntegrationFields,
        {
          portal_id: portalId,
          service_id: serviceId,
          scope_path: ALL_PROJECTS,
          module_id: moduleId,
        },
        CALL,
      ),
    );
    return fields.map((field) => ({
      id: field.id,
      apiName: field.api_name,
      label: field.display_name ?? field.api_name,
      type: field.field_type,
    }));
  }
}
