import { useEffect, useState } from 'react';
import type { AccountSummary } from '../../../../shared/ipc/areas/accounts';
import { AccountsMessages } from './AccountsMessages';
import { useAccounts } from './AccountsContext';
import { formatTime } from './formatTime';
import { SignInOptions } from './SignInOptions';

/** Every account with its data center, scopes and token status; sign in again, sign out, add. */
export function AccountsPanel() {
  const state = useAccounts((s) => s.state);
  const accounts = state?.accounts ?? [];
  const [adding, setAdding] = useState(false);
  return (
    <div className="accounts-panel">
      <AccountsMessages />
      {accounts.map((account) => (
        <AccountCard key={account.accountId} account={account} />
      ))}
      {adding ? (
        <SignInOptions />
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          Add an account
        </button>
      )}
    </div>
  );
}

/** Re-renders every few seconds so "valid until" and the window's count stay current. */
function useTick(ms: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

function AccountCard({ account }: { account: AccountSummary }) {
  useTick(5000);
  const busy = useAccounts((s) => s.busy);
  const setActive = useAccounts((s) => s.setActive);
  const signInAgain = useAccounts((s) => s.signInAgain);
  const signOut = useAccounts((s) => s.signOut);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const tokens = account.tokens;
  const headingId = `account-${account.accountId}`;
  return (
    <section className="card account-card" aria-labelledby={headingId}>
      <h2 id={headingId}>
        {account.label}
        {account.active && <span className="badge">Active</span>}
      </h2>
      {account.status === 'signed_out' && (
        <p className="error" role="status">
          Signed out — sign in again. {account.statusMessage}
        </p>
      )}
      <dl className="facts">
        <dt>Service</dt>
        <dd>{account.profileName}</dd>
        <dt>Data center</dt>
        <dd>{account.dataCenterLabel}</dd>
        <dt>API address</dt>
        <dd className="mono">{account.apiDomain}</dd>
        <dt>Client id</dt>
        <dd className="mono">{account.clientId}</dd>
        <dt>Scopes</dt>
        <dd className="mono">{account.scopes.join(', ') || '—'}</dd>
        <dt>Portals</dt>
        <dd>{account.portals.map((p) => p.name).join(', ') || '—'}</dd>
        <dt>Access token</dt>
        <dd data-testid="token-valid-until">
          {tokens?.validUntil ? `valid until ${formatTime(tokens.validUntil)}` : 'none held now'}
        </dd>
        <dt>Refreshes, last 10 minutes</dt>
        <dd data-testid="token-refreshes">
          {tokens ? `${tokens.refreshesInWindow} of ${tokens.refreshLimit}` : '—'}
          {tokens?.waitingUntil && ` (next one waits until ${formatTime(tokens.waitingUntil)})`}
        </dd>
      </dl>
      <div className="accounts-actions">
        {!account.active && (
          <button type="button" onClick={() => void setActive(account.accountId)}>
            Make active
          </button>
        )}
        {account.status === 'signed_out' && (
          <button
            type="button"
            className="primary"
            disabled={busy === `again:${account.accountId}`}
            onClick={() => void signInAgain(account.accountId)}
          >
            Sign in again
          </button>
        )}
        {account.status === 'signed_in' && (
          <button
            type="button"
            disabled={busy === `signOut:${account.accountId}`}
            onClick={() => void signOut(account.accountId, false)}
          >
            Sign out, keep local data
          </button>
        )}
        {confirmDelete ? (
          <>
            <button
              type="button"
              className="primary danger"
              onClick={() => void signOut(account.accountId, true)}
            >
              Delete its local data and queued edits
            </button>
            <button type="button" onClick={() => setConfirmDelete(false)}>
              Keep them
            </button>
          </>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>
            {account.status === 'signed_in' ? 'Sign out and delete local data…' : 'Remove…'}
          </button>
        )}
      </div>
    </section>
  );
}
