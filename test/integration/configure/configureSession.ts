/** A ConfigureService on an outbox session (an emulator-synced mirror and its outbox). */
import { EventHub } from '../../../src/main/bridge/eventHub';
import { ConfigureService } from '../../../src/main/configure/configureService';
import type { OutboxService } from '../../../src/main/outbox/outboxService';
import type { FieldSettings } from '../../../src/shared/ipc/areas/configure';
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

/** A field's settings with every one left plain: what the create form starts from. */
export function plainFieldSettings(label = ''): FieldSettings {
  return {
    label,
    mandatory: false,
    pii: false,
    encrypted: false,
    description: null,
    defaultValue: null,
    hasInfo: false,
    currencyListType: null,
    currencyCode: null,
    precision: null,
    userListType: null,
  };
}
