import { useState, type FormEvent } from 'react';
import { useAccounts } from './AccountsContext';
import { OptionSelect } from './OptionSelect';
import { SecretInput } from './SecretInput';

/**
 * "Self Client code": a grant code generated in the developer console with the user's scopes,
 * pasted here and exchanged. The demo portal has a console of its own one click away.
 */
export function SelfClientForm() {
  const profiles = useAccounts((s) => s.profiles);
  const selfClient = useAccounts((s) => s.selfClient);
  const demoCode = useAccounts((s) => s.demoSelfClientCode);
  const busy = useAccounts((s) => s.busy);
  const [profileId, setProfileId] = useState('');
  const profile = profiles.find((p) => p.id === profileId) ?? profiles[0];
  const [dataCenter, setDataCenter] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [scopes, setScopes] = useState('');
  const [code, setCode] = useState('');
  if (!profile) return null;

  const dcs = profile.dataCenters.filter((dc) => dc.hasAccounts);
  const dc = dcs.some((d) => d.key === dataCenter) ? dataCenter : (dcs[0]?.key ?? '');
  const scopeText = scopes || profile.defaultScopes.write.join(', ');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const account = await selfClient({
      profileId: profile.id,
      dataCenter: dc,
      code,
      scopes: scopeText,
      ...(profile.isDemo ? {} : { clientId, clientSecret }),
    });
    if (account) {
      setCode('');
      setClientSecret('');
    }
  };

  return (
    <form className="accounts-form" onSubmit={(event) => void submit(event)}>
      <OptionSelect
        label="Service"
        value={profile.id}
        options={profiles.map((p) => ({ value: p.id, label: p.name }))}
        onChange={setProfileId}
      />
      {dcs.length > 1 && (
        <OptionSelect
          label="Data center the code was generated in"
          value={dc}
          options={dcs.map((d) => ({ value: d.key, label: d.label }))}
          onChange={setDataCenter}
        />
      )}
      {!profile.isDemo && (
        <>
          <label>
            Client id
            <input value={clientId} onChange={(e) => setClientId(e.target.value)} required />
          </label>
          <label>
            Client secret
            <SecretInput value={clientSecret} onChange={setClientSecret} required />
          </label>
        </>
      )}
      <label>
        Scopes the code was generated with
        <textarea rows={2} value={scopeText} onChange={(e) => setScopes(e.target.value)} />
      </label>
      <label>
        Grant code
        <input
          className="mono"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder="1000.…"
          required
        />
      </label>
      <div className="accounts-actions">
        {profile.isDemo && (
          <button
            type="button"
            disabled={busy === 'demoCode'}
            onClick={() => void demoCode(scopeText).then((c) => c && setCode(c))}
          >
            Generate a code in the demo console
          </button>
        )}
        <button type="submit" className="primary" disabled={busy === 'selfClient'}>
          Exchange the code
        </button>
      </div>
    </form>
  );
}
