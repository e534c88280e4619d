import { useAccounts } from './AccountsContext';

/** The last failure or notice of an accounts action, in the engine's own words. */
export function AccountsMessages() {
  const error = useAccounts((s) => s.error);
  const notice = useAccounts((s) => s.notice);
  const dismiss = useAccounts((s) => s.dismiss);
  if (!error && !notice) return null;
  return (
    <div className={error ? 'error banner' : 'banner banner--ok'} role={error ? 'alert' : 'status'}>
      <span>{error ?? notice}</span>
      <button type="button" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
