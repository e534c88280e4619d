import { useEffect, useState } from 'react';
import { EventLog } from './EventLog';
import { PublishersPanel } from './PublishersPanel';
import { useApi } from '../../bridge/ApiContext';
import { createRouterStore, type RouterNotice, type RouterTab } from './routerStore';
import { RulesPanel } from './RulesPanel';
import { SECTIONS } from '../../app/sections';
import { useCopy } from '../../ui/useCopy';
import { TargetsPanel } from './TargetsPanel';
import { RouterStoreContext, useRouter } from './useRouter';
import './router.css';

const EMPTY = SECTIONS.find((section) => section.id === 'router')?.empty ?? null;

const TABS: { id: RouterTab; label: string }[] = [
  { id: 'events', label: 'Event log' },
  { id: 'publishers', label: 'Publishers & schemas' },
  { id: 'rules', label: 'Rules' },
  { id: 'targets', label: 'Targets' },
];

/** A secret shown once, with its message: it can be copied, and a note says how that went. */
function NoticeBanner({ notice, onDismiss }: { notice: RouterNotice; onDismiss(): void }) {
  const { copy, noteFor } = useCopy({
    copied: 'Copied.',
    refused: 'The clipboard is not available here: select the key and copy it.',
  });
  const copyNote = noteFor(notice.secret);
  return (
    <div className="banner router-notice" role="status">
      <p>
        {notice.message}{' '}
        <code className="mono" data-testid="router-secret">
          {notice.secret}
        </code>
      </p>
      {copyNote && <span className="muted">{copyNote}</span>}
      <button type="button" onClick={() => void copy(notice.secret)}>
        Copy key
      </button>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

function RouterBody() {
  const tab = useRouter((state) => state.tab);
  const setTab = useRouter((state) => state.setTab);
  const error = useRouter((state) => state.error);
  const notice = useRouter((state) => state.notice);
  const setNotice = useRouter((state) => state.setNotice);
  const overview = useRouter((state) => state.overview);
  const run = useRouter((state) => state.run);
  return (
    <div className="router-view" data-testid="router-view">
      <div className="router-view__bar">
        <div role="tablist" aria-label="Event router" className="router-tabs">
          {TABS.map((t) => (
            <button
              key={t.id}
              role="tab"
              type="button"
              aria-selected={tab === t.id}
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <span className="muted mono" data-testid="router-ingress">
          {overview?.ingressUrl ? (
            `ingress ${overview.ingressUrl}`
          ) : (
            <button type="button" onClick={() => void run((api) => api.router.startIngress())}>
              Start ingress
            </button>
          )}
          {overview && overview.clock.scale !== 1 && ` · clock ×${overview.clock.scale}`}
        </span>
      </div>
      {EMPTY &&
        overview &&
        overview.rules.length === 0 &&
        overview.publishers.every((p) => p.kind !== 'custom') && (
          <section className="router-intro" role="status">
            <h2>{EMPTY.title}</h2>
            <p>{EMPTY.body}</p>
            <p className="muted">{EMPTY.next}</p>
          </section>
        )}
      {error && (
        <p className="error banner" role="alert">
          {error}
        </p>
      )}
      {notice && <NoticeBanner notice={notice} onDismiss={() => setNotice(null)} />}
      {tab === 'events' && <EventLog />}
      {tab === 'publishers' && <PublishersPanel />}
      {tab === 'rules' && <RulesPanel />}
      {tab === 'targets' && <TargetsPanel />}
    </div>
  );
}

/** The event-router sandbox: publishers and schemas, rules, targets and the event log. */
export function RouterView() {
  const api = useApi();
  const [store] = useState(() => createRouterStore(api));
  useEffect(() => {
    void store.getState().load();
    return api.on('router.changed', (change) => store.getState().changed(change));
  }, [api, store]);
  return (
    <RouterStoreContext.Provider value={store}>
      <RouterBody />
    </RouterStoreContext.Provider>
  );
}
