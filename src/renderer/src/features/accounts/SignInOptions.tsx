import { useId, useRef, useState } from 'react';
import {
  FormProblem,
  NO_PROBLEMS,
  problemId,
  problemsOfRefusal,
  useFocusFirstProblem,
  type FormProblems,
} from '../../ui/formProblems';
import { AccountsMessages } from './AccountsMessages';
import { useAccounts } from './AccountsContext';
import { ConnectAccountForm } from './ConnectAccountForm';
import { PendingSignInBanner } from './PendingSignInBanner';
import { SelfClientForm } from './SelfClientForm';

/** The three ways in: the demo portal, the browser sign-in, a Self Client code. */
export function SignInOptions() {
  const signInDemo = useAccounts((s) => s.signInDemo);
  const busy = useAccounts((s) => s.busy);
  const hasDemo = useAccounts((s) => s.profiles.some((p) => p.isDemo));
  // The demo's refusal (it could not start, say) goes beside its button.
  const [demoProblem, setDemoProblem] = useState<FormProblems>(NO_PROBLEMS);
  const demoRef = useRef<HTMLElement>(null);
  const demoId = useId();
  useFocusFirstProblem(demoProblem, demoRef);
  const tryDemo = async () => {
    setDemoProblem(NO_PROBLEMS);
    const outcome = await signInDemo();
    if (!outcome.ok) setDemoProblem(problemsOfRefusal(outcome.refusal, []));
  };
  return (
    <div className="accounts-options">
      <AccountsMessages />
      <PendingSignInBanner />
      {hasDemo && (
        <section className="card" aria-labelledby="demo-heading" ref={demoRef}>
          <h2 id="demo-heading">Try the demo portal</h2>
          <p>
            A complete portal running inside PortalDesk, with sample modules, records and comments.
            Nothing leaves this computer; its data stays in your data directory.
          </p>
          <button
            type="button"
            className="primary"
            disabled={busy === 'demo'}
            aria-describedby={demoProblem.form ? problemId(demoId, null) : undefined}
            onClick={() => void tryDemo()}
          >
            {busy === 'demo' ? 'Starting the demo portal…' : 'Try the demo portal'}
          </button>
          <FormProblem problems={demoProblem} formId={demoId} />
        </section>
      )}
      <section className="card" aria-labelledby="connect-heading">
        <h2 id="connect-heading">Sign in to a service</h2>
        <p className="hint">
          Your browser opens the service's sign-in page; PortalDesk receives the answer on this
          computer. The refresh token and client secret go to your system keychain, never to disk in
          clear text.
        </p>
        <ConnectAccountForm />
      </section>
      <section className="card" aria-labelledby="self-client-heading">
        <h2 id="self-client-heading">Self Client code</h2>
        <p className="hint">
          Generated in the developer console (Self Client) with your scopes, valid a few minutes.
        </p>
        <SelfClientForm />
      </section>
    </div>
  );
}
