/**
 * The default publishers and the hooks the rest of PortalDesk calls (src/main/routerFeeds.ts): the
 * three platform publishers, made on the first start; a suite publisher per signed-in portal with
 * its modules' Create…Reject events; and raising their events through the intake. They are found
 * by a system key (`platform:<key>`, `suite:<portal id>`), never by their generated id.
 */
import {
  PLATFORM_PUBLISHERS,
  SUITE_SCOPES,
  SUITE_SERVICE,
  suiteEventApiName,
  type PlatformEventName,
  type PlatformPublisherKey,
  type SuiteScope,
} from './defaultPublishers';
import type { EventIntake } from './eventIntake';
import type { RouterContext } from './routerContext';
import { RouterNotFoundError } from './routerErrors';
import type { PublisherRow } from '../store/routerRows';

/** A signed-in portal as its suite publisher needs it: the modules' API names give its events. */
export interface SuitePortal {
  id: string;
  name: string;
  modules: readonly string[];
}

export class BuiltInPublishers {
  constructor(
    private readonly context: RouterContext,
    private readonly intake: Pick<EventIntake, 'publish'>,
  ) {}

  ensurePlatformPublishers(): void {
    for (const [key, spec] of Object.entries(PLATFORM_PUBLISHERS)) {
      this.ensureDefaultPublisher(
        `platform:${key}`,
        spec.name,
        'platform',
        spec.service,
        spec.events,
      );
    }
  }

  /** Creates the publisher and whichever of `events` it lacks; a no-op when it has them all. */
  private ensureDefaultPublisher(
    systemKey: string,
    name: string,
    kind: 'platform' | 'suite',
    service: string,
    events: readonly string[],
  ): PublisherRow {
    const { repository, ids } = this.context;
    let row = repository.getPublisherBySystemKey(systemKey);
    const missing = events.filter(
      (apiName) => !row || !repository.getEventConfigByName(row.id, apiName),
    );
    if (row && missing.length === 0) return row;
    repository.transaction(() => {
      if (!row) {
        row = {
          id: ids.next(),
          name,
          kind,
          service,
          status: 'active',
          api_key_hash: null,
          api_key_hint: null,
          system_key: systemKey,
          created_at: Date.now(),
        };
        repository.upsertPublisher(row);
      }
      for (const apiName of missing) {
        repository.insertEventConfig({
          id: ids.next(),
          publisherId: row.id,
          apiName,
          sample: null,
          createdAt: Date.now(),
        });
      }
    });
    this.context.changed(true, false);
    return row as PublisherRow;
  }

  /** Raises a platform-service event (sync runs, backup downloads, sign-in/refresh/sign-out). */
  raisePlatformEvent<K extends PlatformPublisherKey>(
    publisher: K,
    event: PlatformEventName<K>,
    data: Record<string, unknown>,
  ): string {
    const row = this.context.repository.getPublisherBySystemKey(`platform:${publisher}`);
    if (!row) throw new Error(`The platform publisher ${publisher} is missing.`);
    return this.intake.publish(row.id, event, data);
  }

  /**
   * The suite publisher of a signed-in portal, with Create…Reject events per module (idempotent;
   * new modules add their five events). The engine turns the row into the view it returns.
   */
  ensureSuitePublisher(portal: SuitePortal): PublisherRow {
    const events = portal.modules.flatMap((module) =>
      SUITE_SCOPES.map((scope) => suiteEventApiName(module, scope)),
    );
    return this.ensureDefaultPublisher(
      `suite:${portal.id}`,
      `${portal.name} (portal ${portal.id})`,
      'suite',
      SUITE_SERVICE,
      events,
    );
  }

  /** Raises a suite event: a change sync pulled or the outbox replayed, for a module and scope. */
  raiseSuiteEvent(
    portalId: string,
    moduleApiName: string,
    scope: SuiteScope,
    data: Record<string, unknown>,
  ): string {
    const row = this.context.repository.getPublisherBySystemKey(`suite:${portalId}`);
    if (!row) {
      throw new RouterNotFoundError(
        `Portal ${portalId} has no suite publisher yet; call ensureSuitePublisher first.`,
      );
    }
    return this.intake.publish(row.id, suiteEventApiName(moduleApiName, scope), data);
  }
}
