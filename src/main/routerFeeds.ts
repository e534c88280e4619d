import type { SyncRunEntry } from '../shared/ipc/areas/sync';
import type { ReplayedChange } from './outbox/outboxEvents';
import type { SuiteScope } from './router/engine/defaultPublishers';
import type { Mirror } from './store/mirror/mirror';

/** What the feeds need of the router engine (RouterEngine implements it). */
export interface RouterSink {
  raisePlatformEvent(
    publisher: 'data_updates' | 'authentication',
    event: 'SyncCompleted' | 'SyncFailed' | 'SignedIn' | 'TokenRefreshed' | 'SignedOut',
    data: Record<string, unknown>,
  ): string;
  ensureSuitePublisher(portal: { id: string; name: string; modules: readonly string[] }): unknown;
  raiseSuiteEvent(
    portalId: string,
    moduleApiName: string,
    scope: SuiteScope,
    data: Record<string, unknown>,
  ): string;
}

/** The sources of default-publisher events, as the engine has them. */
export interface RouterSources {
  mirror: Mirror;
  sync: { onRunEnded(listener: (run: SyncRunEntry) => void): () => void };
  outbox: { onReplayed(listener: { onReplayed(change: ReplayedChange): void }): () => void };
  accounts: {
    onSignedIn(listener: (account: { accountId: string; label?: string }) => void): () => void;
    onSignedOut(listener: (accountId: string) => void): () => void;
    onTokenRefreshed(listener: (accountId: string, expiresAt: number) => void): () => void;
  };
  log: { warn(message: string): void };
}

const SCOPE_OF: Record<ReplayedChange['kind'], SuiteScope> = {
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
};

/**
 * Connects the app's own events to the event-router sandbox (issue 8's default publishers): each
 * sync run is a "data updates" event, sign-in, token refreshes and sign-out are "authentication
 * activity", and each change the outbox replayed is a Create, Update or Delete of its portal's suite publisher. A
 * router failure is logged and never disturbs the source. Returns the disconnect.
 */
export function feedRouter(router: RouterSink, sources: RouterSources): () => void {
  const { mirror, log } = sources;
  const guarded =
    <A extends unknown[]>(what: string, fn: (...args: A) => void) =>
    (...args: A) => {
      try {
        fn(...args);
      } catch (error) {
        log.warn(`The event router could not take ${what}: ${String(error)}`);
      }
    };

  /** A portal's suite publisher, with an event set per module the mirror knows. */
  const ensurePortal = (portalId: string): boolean => {
    const portal = mirror.metadata.portal(portalId);
    if (!portal) return false;
    router.ensureSuitePublisher({
      id: portalId,
      name: portal.name,
      modules: mirror.metadata.modules(portalId).map((module) => module.apiName),
    });
    return true;
  };

  const stops = [
    sources.sync.onRunEnded(
      guarded('a sync run', (run) => {
        for (const portalId of new Set(run.outcomes.map((outcome) => outcome.portalId))) {
          ensurePortal(portalId);
        }
        router.raisePlatformEvent(
          'data_updates',
          run.state === 'done' ? 'SyncCompleted' : 'SyncFailed',
          {
            run_id: run.runId,
            account_id: run.accountId,
            data_center: run.dc,
            state: run.state,
            message: run.message,
            calls: run.calls,
            records: run.records,
            started_at: new Date(run.startedAt).toISOString(),
            ended_at: run.endedAt === null ? null : new Date(run.endedAt).toISOString(),
            portals: [...new Set(run.outcomes.map((outcome) => outcome.portalId))],
          },
        );
      }),
    ),
    sources.outbox.onReplayed({
      onReplayed: guarded('a replayed change', (change: ReplayedChange) => {
        const module = mirror.metadata
          .modules(change.portalId)
          .find((candidate) => candidate.id === change.moduleId);
        if (!module || !ensurePortal(change.portalId)) return;
        router.raiseSuiteEvent(change.portalId, module.apiName, SCOPE_OF[change.kind], {
          record_id: change.recordId,
          module: module.apiName,
          ...change.data,
        });
      }),
    }),
    sources.accounts.onSignedIn(
      guarded('a sign-in', (account) => {
        router.raisePlatformEvent('authentication', 'SignedIn', {
          account_id: account.accountId,
          label: account.label ?? null,
        });
      }),
    ),
    sources.accounts.onTokenRefreshed(
      guarded('a token refresh', (accountId: string, expiresAt: number) => {
        router.raisePlatformEvent('authentication', 'TokenRefreshed', {
          account_id: accountId,
          valid_until: new Date(expiresAt).toISOString(),
        });
      }),
    ),
    sources.accounts.onSignedOut(
      guarded('a sign-out', (accountId: string) => {
        router.raisePlatformEvent('authentication', 'SignedOut', { account_id: accountId });
      }),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
