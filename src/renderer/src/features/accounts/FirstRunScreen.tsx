import { SignInOptions } from './SignInOptions';

/** Shown while no account exists: what PortalDesk needs, and the ways to give it. */
export function FirstRunScreen({ onSkip }: { onSkip(): void }) {
  return (
    <main className="first-run" aria-labelledby="first-run-heading">
      <header>
        <span className="sidebar__logo" aria-hidden="true" />
        <h1 id="first-run-heading">Welcome to PortalDesk</h1>
        <p>
          Sign in once and PortalDesk mirrors your portals to this computer, so you can review and
          edit them without a network. Start with the demo portal, or connect your own account.
        </p>
      </header>
      <SignInOptions />
      <p className="first-run__skip">
        <button type="button" className="link-button" onClick={onSkip}>
          Skip for now
        </button>{' '}
        and look around without an account (the event router works without one).
      </p>
    </main>
  );
}
