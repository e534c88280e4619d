import { useState, type FormEvent } from 'react';
import type { ProfileSummary } from '../../../../shared/ipc/areas/accounts';
import { AddProfileForm } from './AddProfileForm';
import { useAccounts } from './AccountsContext';
import { OptionSelect } from './OptionSelect';
import { SecretInput } from './SecretInput';

/** "Sign in to a service": the browser flow with a client registration of the user's own. */
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

  const pickAccess = (next: 'read' | 'write') => {
    setAccess(next);
    setScopes(profile.defaultScopes[next].join(', '));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const others = Object.fromEntries(
      Object.entries(otherSecrets).filter(([dc, secret]) => dc !== dataCenter && secret.trim()),
    );
    const account = await signIn({
      profileId: profile.id,
      dataCenter,
      clientId,
      clientSecret,
      redirectUri,
      scopes,
      ...(Object.keys(others).length > 0 ? { otherSecrets: others } : {}),
    });
    // Secrets leave the form once the engine has them.
    if (account) {
      setClientSecret('');
      setOtherSecrets({});
    }
  };

  return (
    <form className="accounts-form" onSubmit={(event) => void submit(event)}>
      {profiles.length > 1 && (
        <OptionSelect
          label="Service"
          value={profile.id}
          options={profiles.map((p) => ({ value: p.id, label: p.name }))}
          onChange={onProfile}
        />
      )}
      <OptionSelect
        label="Data center"
        value={dataCenter}
        options={signInDcs.map((dc) => ({ value: dc.key, label: dc.label }))}
        onChange={setDataCenter}
      />
      <label>
        Client id
        <input value={clientId} onChange={(e) => setClientId(e.target.value)} required />
      </label>
      <label>
        Client secret{profile.multiDc ? ` (${dataCenter.toUpperCase()})` : ''}
        <SecretInput value={clientSecret} onChange={setClientSecret} required />
      </label>
      {profile.multiDc && (
        <details>
          <summary>Client secrets of other data centers (Multi-DC)</summary>
          {signInDcs
            .filter((dc) => dc.key !== dataCenter)
            .map((dc) => (
              <label key={dc.key}>
                {dc.label}
                <SecretInput
                  value={otherSecrets[dc.key] ?? ''}
                  onChange={(secret) => setOtherSecrets({ ...otherSecrets, [dc.key]: secret })}
                />
              </label>
            ))}
          <p className="hint">
            Your account may live in another data center than the one picked; the sign-in then needs
            that data center's secret.
          </p>
        </details>
      )}
      <label>
        Redirect URI (exactly as registered)
        <input value={redirectUri} onChange={(e) => setRedirectUri(e.target.value)} required />
      </label>
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
        <textarea rows={3} value={scopes} onChange={(e) => setScopes(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Waiting for the browser…' : 'Sign in with the browser'}
      </button>
    </form>
  );
}
