import { useState } from 'react';
import { AccountsDialog } from './AccountsDialog';
import { useAccounts } from './AccountsContext';

/** The active account (its portal's name and data center), switching, and the accounts page. */
export function AccountSwitcher() {
  const state = useAccounts((s) => s.state);
  const setActive = useAccounts((s) => s.setActive);
  const [open, setOpen] = useState(false);
  const accounts = state?.accounts ?? [];
  const active = accounts.find((a) => a.active);
  return (
    <div className="account-switcher" data-testid="account-switcher">
      <span className="account-switcher__label" aria-hidden="true">
        Account
      </span>
      {accounts.length > 1 ? (
        <select
          aria-label="Active account"
          value={active?.accountId ?? ''}
          onChange={(e) => void setActive(e.target.value)}
        >
          {accounts.map((a) => (
            <option key={a.accountId} value={a.accountId}>
              {a.label} · {a.dataCenter.toUpperCase()}
              {a.status === 'signed_out' ? ' (signed out)' : ''}
            </option>
          ))}
        </select>
      ) : (
        <span className="account-switcher__name" title={active?.profileName}>
          {active ? `${active.label} · ${active.dataCenter.toUpperCase()}` : 'No account'}
        </span>
      )}
      {active?.status === 'signed_out' && (
        <span className="account-switcher__warn" role="status">
          Signed out — sign in again
        </span>
      )}
      <button type="button" className="link-button" onClick={() => setOpen(true)}>
        {accounts.length > 0 ? 'Accounts…' : 'Sign in…'}
      </button>
      {open && <AccountsDialog onClose={() => setOpen(false)} />}
    </div>
  );
}
