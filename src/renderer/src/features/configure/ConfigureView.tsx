import './configure.css';
import { useEffect, useId } from 'react';
import { SECTIONS } from '../../app/sections';
import { useShell } from '../../app/ShellContext';
import { EmptyState } from '../../ui/EmptyState';
import { useOutbox } from '../outbox/OutboxContext';
import { BinPanel } from './BinPanel';
import { CopyPanel } from './CopyPanel';
import { FieldsSection } from './FieldsSection';
import { IntegrationsPanel } from './IntegrationsPanel';
import { LayoutsPanel } from './LayoutsPanel';
import { useConfigure } from './ConfigureContext';
import { ModulesPanel } from './ModulesPanel';

const EMPTY = SECTIONS.find((section) => section.id === 'configure')!.empty;

/** Where the changes made here go, and whether they can go now. */
function QueuedNote() {
  const status = useOutbox((state) => state.status);
  const select = useShell((state) => state.select);
  const when = status?.workOffline
    ? '“Work offline” is on: nothing is sent until you switch it off.'
    : status?.online === false
      ? 'The service cannot be reached now: they go out when the connection is back.'
      : 'They are sent when the service can be reached.';
  return (
    <p className="banner configure-queued" role="note">
      <span>
        Changes made here are checked at once, shown at once, and queued in the Outbox. {when}
      </span>
      <button type="button" onClick={() => select('outbox')}>
        Open the Outbox
      </button>
    </p>
  );
}

/**
 * A portal's configuration, administered offline: its modules (create, edit, activate and
 * deactivate, the module bin, delete for good), every change checked by the shared rules and
 * queued in the Outbox; and its recycle bin (restore, delete for good, empty), queued the same way.
 */
export function ConfigureView() {
  const portals = useConfigure((state) => state.portals);
  const portalId = useConfigure((state) => state.portalId);
  const modules = useConfigure((state) => state.modules);
  const loadError = useConfigure((state) => state.errors.load);
  const load = useConfigure((state) => state.load);
  const selectPortal = useConfigure((state) => state.selectPortal);
  const ids = useId();
  // Read again whenever the view opens: portals come and go with syncs and sign-ins.
  useEffect(() => void load(), [load]);

  if (portals === null) {
    return loadError ? (
      <p className="error banner" role="alert">
        The portals could not be read: {loadError}
      </p>
    ) : (
      <p className="muted">Reading portals…</p>
    );
  }
  if (portals.length === 0) return <EmptyState section="configure" {...EMPTY} />;
  const portal = portals.find((candidate) => candidate.id === portalId);
  return (
    <div className="configure-view">
      <div className="configure-view__bar">
        <label htmlFor={`${ids}-portal`}>Portal</label>
        <select
          id={`${ids}-portal`}
          value={portalId ?? ''}
          onChange={(event) => void selectPortal(event.target.value)}
        >
          {portals.map((portal) => (
            <option key={portal.id} value={portal.id}>
              {portal.name}
            </option>
          ))}
        </select>
      </div>
      <QueuedNote />
      {loadError && (
        <p className="error banner" role="alert">
          <span>The modules could not be read: {loadError}</span>
        </p>
      )}
      {modules ? (
        <ModulesPanel modules={modules} />
      ) : (
        !loadError && <p className="muted">Reading modules…</p>
      )}
      {portal && <LayoutsPanel key={`layouts-${portal.id}`} portalId={portal.id} />}
      {modules && <FieldsSection key={`fields-${modules.portalId}`} modules={modules} />}
      {modules && <CopyPanel key={`copy-${modules.portalId}`} modules={modules} />}
      {portal && <BinPanel key={portal.id} portalName={portal.name} />}
      {portal && <IntegrationsPanel key={`integrations-${portal.id}`} portalId={portal.id} />}
    </div>
  );
}
