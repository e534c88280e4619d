import type Database from 'better-sqlite3';
import type { EventHub } from '../bridge/eventHub';
import { RouterEngine } from './routerEngine';
import { RouterIngress } from './routerIngress';

export interface RouterService {
  engine: RouterEngine;
  ingress: RouterIngress;
  close(): void;
}

/**
 * The router inside the app: on the app's store (migration 0005), pushing `router.changed` to
 * every window. The ingress listens only once the UI or a custom publisher needs it.
 */
export function startRouter(db: Database.Database, events: EventHub): RouterService {
  const engine = new RouterEngine({
    db,
    onChange: (change) => events.emit('router.changed', change),
  });
  const ingress = new RouterIngress(engine);
  return {
    engine,
    ingress,
    close: () => {
      void ingress.close();
      engine.close();
    },
  };
}
