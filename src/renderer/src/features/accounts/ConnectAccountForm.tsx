import { useId, useRef, useState, type FormEvent } from 'react';
import { SignInArgs, type ProfileSummary } from '../../../../shared/ipc/areas/accounts';
import {
  FieldProblem,
  FormProblem,
  NO_PROBLEMS,
  problemAttributes,
  problemsOfInput,
  problemsOfRefusal,
  useFocusFirstProblem,
  type FormProblems,
} from '../../ui/formProblems';
import { AddProfileForm } from './AddProfileForm';
import { useAccounts } from './AccountsContext';
import { OptionSelect } from './OptionSelect';
import { SecretInput } from './SecretInput';

/** The arguments this form has a control for; a refusal about any other goes beside submit. */
const CONTROLS = [
  'profileId',
  'dataCenter',
  'clientId',
  'clientSecret',
  'otherSecrets',
  'redirectUri',
  'scopes',
];

/**
 * "Sign in to a service": the browser flow with a client registration of the user's own. Every
 * refusal is shown beside the control it is about (or beside the button), and focus moves there.
 */
export function ConnectAccountForm() {
  // Selected whole: a selector returning a new array would re-render forever.
  const allProfiles = useAccounts((s) => s.profiles);
  const profiles = allProfiles.filter((p) => !p.isDemo);
  const [profileId, setProfileId] = useState<string>('');
  const profile = profiles.find((p) => p.id === profileId) ?? profiles[0];
  if (!profile) {
    return (
      <>
        <p className="hint">
          Add the service profile of your service first: a JSON file with its accounts and API
          addresses per data center (your administrator or the service's documentation has it).
        </p>
        <AddProfileForm />
      </>
    );
  }
  return (
    <ConnectFields
      key={profile.id}
      profile={profile}
      profiles={profiles}
      onProfile={setProfileId}
    />
  );
}

function ConnectFields({
  profile,
  profiles,
  onProfile,
}: {
  profile: ProfileSummary;
  profiles: ProfileSummary[];
  onProfile(id: string): void;
}) {
  const signIn = useAccounts((s) => s.signIn);
  const busy = useAccounts((s) => s.busy === 'signIn');
  const signInDcs = profile.dataCenters.filter((dc) => dc.hasAccounts);
  const [dataCenter, setDataCenter] = useState(signInDcs[0]?.key ?? '');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [otherSecrets, setOtherSecrets] = useState<Record<string, string>>({});
  const [redirectUri, setRedirectUri] = useState(profile.suggestedRedirectUri ?? '');
  const [access, setAccess] = useState<'read' | 'write'>('write');
  const [scopes, setScopes] = useState(profile.defaultScopes.write.join(', '));
  const [problems, setProblems] = useState<FormProblems>(NO_PROBLEMS);
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  useFocusFirstProblem(problems, formRef);
  const described = (field: string) => problemAttributes(problems, formId, field);

  const pickAccess = (next: 'read' | 'write') => {
    setAccess(next);
    setScopes(profile.defaultScopes[next].join(', '));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const others = Object.fromEntries(
      Object.entries(otherSecrets).filter(([dc, secret]) => dc !== dataCenter && secret.trim()),
    );
    const args = {
      profileId: profile.id,
      dataCenter,
      clientId,
      clientSecret,
      redirectUri,
      scopes,
      ...(Object.keys(others).length > 0 ? { otherSecrets: others } : {}),
    };
    const refused = problemsOfInput(SignInArgs, args, CONTROLS);
    if (refused) {
      setProblems(refused);
      return;
    }
    setProblems(NO_PROBLEMS);
    const outcome = await signIn(args);
    // Secrets leave the form once the engine has them.
    if (outcome.ok) {
      setClientSecret('');
      setOtherSecrets({});
    } else {
      setProblems(problemsOfRefusal(outcome.refusal, CONTROLS));
    }
  };

  return (
    <form
      ref={formRef}
      className="accounts-form"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      {profiles.length > 1 && (
        <>
          <OptionSelect
            label="Service"
            value={profile.id}
            options={profiles.map((p) => ({ value: p.id, label: p.name }))}
            onChange={onProfile}
            {...described('profileId')}
          />
          <FieldProblem problems={problems} formId={formId} field="profileId" />
        </>
      )}
      <OptionSelect
        label="Data center"
        value={dataCenter}
        options={signInDcs.map((dc) => ({ value: dc.key, label: dc.label }))}
        onChange={setDataCenter}
        {...described('dataCenter')}
      />
      <FieldProblem problems={problems} formId={formId} field="dataCenter" />
      <label>
        Client id
        <input
          value={clientId}
          onChange={(e) => setClientId(e.target.value)}
          required
          {...described('clientId')}
        />
      </label>
      <FieldProblem problems={problems} formId={formId} field="clientId" />
      <label>
        Client secret{profile.multiDc ? ` (${dataCenter.toUpperCase()})` : ''}
        <SecretInput
          value={clientSecret}
          onChange={setClientSecret}
          required
          {...described('clientSecret')}
        />
      </label>
      <FieldProblem problems={problems} formId={formId} field="clientSecret" />
      {profile.multiDc && (
        <details open={problems.fields.has('otherSecrets') || undefined}>
          <summary>Client secrets of other data centers (Multi-DC)</summary>
          {signInDcs
            .filter((dc) => dc.key !== dataCenter)
            .map((dc) => (
              <label key={dc.key}>
                {dc.label}
                <SecretInput
                  value={otherSecrets[dc.key] ?? ''}
                  onChange={(secret) => setOtherSecrets({ ...otherSecrets, [dc.key]: secret })}
                  {...described('otherSecrets')}
                />
              </label>
            ))}
          <p className="hint">
            Your account may live in another data center than the one picked; the sign-in then needs
            that data center's secret.
          </p>
          <FieldProblem problems={problems} formId={formId} field="otherSecrets" />
        </details>
      )}
      <label>
        Redirect URI (exactly as registered)
        <input
          value={redirectUri}
          onChange={(e) => setRedirectUri(e.target.value)}
          required
          {...described('redirectUri')}
        />
      </label>
      <FieldProblem problems={problems} formId={formId} field="redirectUri" />
      <fieldset className="segmented">
        <legend>Access</legend>
        <label>
          <input type="radio" checked={access === 'read'} onChange={() => pickAccess('read')} />
          <span>Read</span>
        </label>
        <label>
          <input type="radio" checked={access === 'write'} onChange={() => pickAccess('write')} />
          <span>Read and write</span>
        </label>
      </fieldset>
      <label>
        Scopes (comma-separated)
        <textarea
          rows={3}
          value={scopes}
          onChange={(e) => setScopes(e.target.value)}
          {...described('scopes')}
        />
      </label>
      <FieldProblem problems={problems} formId={formId} field="scopes" />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Waiting for the browser…' : 'Sign in with the browser'}
      </button>
      <FormProblem problems={problems} formId={formId} />
    </form>
  );
}
