import { formatTime } from './formatTime';
import { useAccounts } from './AccountsContext';
import { useCopy } from '../../ui/useCopy';

/**
 * While a sign-in waits for the browser: where it went, until when, and a way out. The page
 * opens again in the browser, or its address is copied to paste there: a browser that cannot
 * read the private page the app opens it through (a snap or flatpak browser and the hidden data
 * directory) still gets the address without it ever going on a command line.
 */
export function PendingSignInBanner() {
  const pending = useAccounts((s) => s.state?.pendingSignIn ?? null);
  const cancel = useAccounts((s) => s.cancelSignIn);
  const { copy, noteFor } = useCopy({
    copied: 'Copied: paste it into your browser’s address bar.',
    refused: 'The clipboard refused the address; use “Open the sign-in page again”.',
  });
  if (!pending) return null;
  const note = pending.authUrl === null ? null : noteFor(pending.authUrl);
  return (
    <div className="accounts-pending" role="status" data-testid="pending-sign-in">
      <p>
        Waiting for you to finish signing in to <strong>{pending.profileName}</strong> (data center{' '}
        {pending.dataCenter.toUpperCase()}) in your browser
        {pending.deadline !== null && <> until {formatTime(pending.deadline)}</>}.
      </p>
      <div className="accounts-actions">
        {pending.authUrl && (
          <>
            <a className="button" href={pending.authUrl} target="_blank" rel="noreferrer">
              Open the sign-in page again
            </a>
            <button type="button" onClick={() => void copy(pending.authUrl!)}>
              Copy the sign-in address
            </button>
          </>
        )}
        <button type="button" onClick={() => void cancel()}>
          Cancel sign-in
        </button>
      </div>
      {note && <p className="hint">{note}</p>}
    </div>
  );
}
