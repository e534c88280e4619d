import type { HeadlessConfig } from './headlessConfig';
import type { RouterEngine } from '../engine/routerEngine';

const entries = (map: Record<string, string>) =>
  Object.entries(map).map(([name, value]) => ({ name, value }));

/**
 * Loads a headless config into the router: the account, publishers (with the given ids and keys),
 * their events (a sample generates the schema), targets and rules. Running it again on the same
 * database updates everything in place. Any invalid entry stops the load with its message.
 */
export function applyHeadlessConfig(router: RouterEngine, config: HeadlessConfig): void {
  router.setAccount(config.account);
  for (const publisher of config.publishers) {
    router.createPublisher({
      id: publisher.id,
      name: publisher.name ?? `Publisher ${publisher.id}`,
      apiKey: publisher.api_key,
      status: publisher.status,
      kind: publisher.type,
      service: publisher.service ?? publisher.type,
    });
    for (const event of publisher.events) {
      router.createEvent({
        id: event.id,
        publisherId: publisher.id,
        apiName: event.api_name,
        ...(event.sample !== undefined ? { sample: event.sample } : {}),
      });
    }
  }
  for (const target of config.targets) {
    router.saveTarget({
      id: target.id,
      name: target.name ?? `Target ${target.id}`,
      kind: target.kind,
      status: target.status,
      url: target.url ?? null,
      method: target.method,
      headers: entries(target.headers),
      query: entries(target.query),
      ...(target.rate_limit !== undefined ? { rateLimitPerSecond: target.rate_limit } : {}),
      ...(target.timeout_ms !== undefined ? { timeoutMs: target.timeout_ms } : {}),
      fault: target.fault ?? null,
    });
  }
  for (const rule of config.rules) {
    router.saveRule({
      id: rule.id,
      name: rule.name ?? `Rule ${rule.id}`,
      status: rule.status,
      ...(rule.retry_count !== undefined ? { retryCount: rule.retry_count } : {}),
      eventConfigIds: rule.events,
      filter: rule.filter ?? null,
      targetIds: rule.targets,
    });
  }
}
