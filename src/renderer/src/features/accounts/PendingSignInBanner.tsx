import { formatTime } from './formatTime';
import { useAccounts } from './AccountsContext';

/** While a sign-in waits for the browser: where it went, until when, and a way out. */
export function PendingSignInBanner() {
  const pending = useAccounts((s) => s.state?.pendingSignIn ?? null);
  const cancel = useAccounts((s) => s.cancelSignIn);
  if (!pending) return null;
  return (
    <div className="accounts-pending" role="status" data-testid="pending-sign-in">
      <p>
        Waiting for you to finish signing in to <strong>{pending.profileName}</strong> (data center{' '}
        {pending.dataCenter.toUpperCase()}) in your browser
        {pending.deadline !== null && <> until {formatTime(pending.deadline)}</>}.
      </p>
      <div className="accounts-actions">
        {pending.authUrl && (
          <a className="button" href={pending.authUrl} target="_blank" rel="noreferrer">
            Open the sign-in page again
          </a>
        )}
        <button type="button" onClick={() => void cancel()}>
          Cancel sign-in
        </button>
      </div>
    </div>
  );
}
