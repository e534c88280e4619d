import { useOutbox } from './OutboxContext';

/** "Work offline": while on, neither the outbox nor sync sends anything (kept across restarts). */
export function WorkOfflineToggle() {
  const on = useOutbox((s) => s.status?.workOffline ?? false);
  const busy = useOutbox((s) => s.busy);
  const set = useOutbox((s) => s.setWorkOffline);
  return (
    <label className="work-offline" title="While on, PortalDesk sends nothing: no sync, no replay.">
      <input
        type="checkbox"
        checked={on}
        disabled={busy}
        data-testid="work-offline"
        onChange={(e) => void set(e.target.checked)}
      />
      Work offline
    </label>
  );
}
