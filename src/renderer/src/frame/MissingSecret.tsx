/** Web mode opened without the address the engine printed (which carries the launch secret). */
export function MissingSecret() {
  return (
    <div className="missing-secret" role="alert">
      <h1>Open PortalDesk from the address it printed</h1>
      <p>
        In web mode, PortalDesk only answers pages opened with the address printed by{' '}
        <code>npm run web</code>: it carries a secret for this launch, so other pages and programs
        on this machine cannot use your data.
      </p>
      <p>Copy the whole address from the terminal (including the part after #) and open it here.</p>
    </div>
  );
}
