import type Database from 'better-sqlite3';
import type { EventPusher } from '../bridge/eventHub';
import type { RouterChange } from './engine/routerEngine';
import { RouterEngine } from './engine/routerEngine';
import { RouterIngress } from './routerIngress';

export interface RouterService {
  engine: RouterEngine;
  ingress: RouterIngress;
  close(): void;
}

/**
 * The router inside the app: on the app's store (migration 0005), pushing `router.changed` to
 * every window at the hub's rate, one push saying what any of the changes since the last touched.
 * The ingress listens only once the UI or a custom publisher needs it.
 */
export function startRouter(db: Database.Database, events: EventPusher): RouterService {
  let pending: RouterChange = { config: false, events: false };
  const engine = new RouterEngine({
    db,
    onChange: (change) => {
      pending = {
        config: pending.config || change.config,
        events: pending.events || change.events,
      };
      events.push('router.changed', '', () => {
        const sent = pending;
        pending = { config: false, events: false };
        return sent;
      });
    },
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
