import { useEffect, useRef } from 'react';
import { AccountsPanel } from './AccountsPanel';

/** The accounts page as a modal dialog, from the account switcher. */
export function AccountsDialog({ onClose }: { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="accounts-dialog"
      aria-labelledby="accounts-heading"
      onClose={onClose}
    >
      <header>
        <h1 id="accounts-heading">Accounts</h1>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      <AccountsPanel />
    </dialog>
  );
}
