/** A ConfigureService on an outbox session (an emulator-synced mirror and its outbox). */
import { EventHub } from '../../../src/main/bridge/eventHub';
import { ConfigureService } from '../../../src/main/configure/configureService';
import type { OutboxService } from '../../../src/main/outbox/outboxService';
import type { outboxSession } from '../outbox/outboxSession';

export type Session = Awaited<ReturnType<typeof outboxSession>>;

export function configureOn(s: Session, outbox: OutboxService = s.outbox) {
  return new ConfigureService({
    db: s.store.db,
    mirror: s.mirror,
    outbox,
    events: new EventHub(),
    refresh: () => undefined,
    clientFor: () => s.client,
  });
}
