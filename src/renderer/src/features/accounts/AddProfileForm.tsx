import { useState, type FormEvent } from 'react';
import { useAccounts } from './AccountsContext';

/** Paste a service profile (JSON); the engine checks it and says what is wrong. */
export function AddProfileForm() {
  const addProfile = useAccounts((s) => s.addProfile);
  const busy = useAccounts((s) => s.busy === 'profile');
  const [json, setJson] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await addProfile(json)) setJson('');
  };
  return (
    <form className="accounts-form" onSubmit={(event) => void submit(event)}>
      <label>
        Service profile (JSON)
        <textarea
          rows={5}
          className="mono"
          value={json}
          onChange={(e) => setJson(e.target.value)}
          placeholder='{"id": "service", "name": "…", "dataCenters": {"us": {"api": "https://…", "accounts": "https://…"}}, …}'
          required
        />
      </label>
      <button type="submit" disabled={busy}>
        Add the profile
      </button>
    </form>
  );
}
