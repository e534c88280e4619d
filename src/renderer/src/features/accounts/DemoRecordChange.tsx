import { useEffect, useId, useRef, useState } from 'react';
import type { DemoChangeResult } from '../../../../shared/ipc/areas/accounts';
import { useRecords } from '../records/RecordsContext';
import { useAccounts } from './AccountsContext';

/**
 * The record panel's "Change this record on the server", shown for records of the demo portal
 * only: another member of the demo portal changes the record on the demo service, so the user can
 * meet a conflict and try Keep mine / Take theirs. The engine refuses it for any other account.
 */
export function DemoRecordChange({ portalId, recordId }: { portalId: string; recordId: string }) {
  const accountId = useRecords((s) => s.portals?.find((p) => p.id === portalId)?.accountId);
  const isDemo = useAccounts((s) => {
    const account = s.state?.accounts.find((a) => a.accountId === accountId);
    return account !== undefined && s.profiles.some((p) => p.id === account.profileId && p.isDemo);
  });
  const change = useAccounts((s) => s.demoChangeRecord);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<
    { recordId: string; result: DemoChangeResult } | { recordId: string; error: string } | null
  >(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const ids = useId();
  const shown = answer?.recordId === recordId ? answer : null;
  const error = shown && 'error' in shown ? shown.error : null;
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);
  if (!isDemo) return null;

  const run = async () => {
    setBusy(true);
    const outcome = await change(portalId, recordId);
    setBusy(false);
    setAnswer(
      outcome.ok ? { recordId, result: outcome.result } : { recordId, error: outcome.error },
    );
  };
  return (
    <section
      className="record-section demo-change"
      aria-labelledby={`${ids}-heading`}
      data-testid="demo-change"
    >
      <h3 id={`${ids}-heading`}>Try a conflict (demo portal)</h3>
      <p className="hint" id={`${ids}-what`}>
        Another member of the demo portal will rename this record on the demo service (and change
        its description if you have edited that here) while your copy keeps what you see, so your
        edit of the same field, made now or already queued, meets theirs as a conflict in the
        Outbox.
      </p>
      <button
        type="button"
        disabled={busy}
        aria-describedby={error ? `${ids}-error` : `${ids}-what`}
        onClick={() => void run()}
      >
        {busy ? 'Changing it on the server…' : 'Change this record on the server'}
      </button>
      {shown && 'result' in shown && (
        <p className="banner banner--ok" role="status" data-testid="demo-change-done">
          {shown.result.message}
        </p>
      )}
      {error && (
        <p id={`${ids}-error`} className="field-error" role="alert" tabIndex={-1} ref={errorRef}>
          {error}
        </p>
      )}
    </section>
  );
}
