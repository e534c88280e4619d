import { useId, useRef, useState, type FormEvent } from 'react';
import { SelfClientArgs } from '../../../../shared/ipc/areas/accounts';
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
import { useAccounts } from './AccountsContext';
import { OptionSelect } from './OptionSelect';
import { SecretInput } from './SecretInput';

/** The arguments this form has a control for; a refusal about any other goes beside submit. */
const CONTROLS = ['profileId', 'dataCenter', 'clientId', 'clientSecret', 'scopes', 'code'];

/**
 * "Self Client code": a grant code generated in the developer console with the user's scopes,
 * pasted here and exchanged. The demo portal has a console of its own one click away. Every
 * refusal (the contract's checks before sending, the engine's answer after) is shown beside the
 * control it is about, and focus moves there.
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
  const [problems, setProblems] = useState<FormProblems>(NO_PROBLEMS);
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  useFocusFirstProblem(problems, formRef);
  if (!profile) return null;

  const dcs = profile.dataCenters.filter((dc) => dc.hasAccounts);
  const dc = dcs.some((d) => d.key === dataCenter) ? dataCenter : (dcs[0]?.key ?? '');
  const scopeText = scopes || profile.defaultScopes.write.join(', ');
  const described = (field: string) => problemAttributes(problems, formId, field);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const args = {
      profileId: profile.id,
      dataCenter: dc,
      code,
      scopes: scopeText,
      ...(profile.isDemo ? {} : { clientId, clientSecret }),
    };
    const refused = problemsOfInput(SelfClientArgs, args, CONTROLS);
    if (refused) {
      setProblems(refused);
      return;
    }
    setProblems(NO_PROBLEMS);
    const outcome = await selfClient(args);
    if (outcome.ok) {
      setCode('');
      setClientSecret('');
    } else {
      setProblems(problemsOfRefusal(outcome.refusal, CONTROLS));
    }
  };
  const generate = async () => {
    const outcome = await demoCode(scopeText);
    if (outcome.ok) {
      setCode(outcome.value);
      setProblems(NO_PROBLEMS);
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
      <OptionSelect
        label="Service"
        value={profile.id}
        options={profiles.map((p) => ({ value: p.id, label: p.name }))}
        onChange={setProfileId}
        {...described('profileId')}
      />
      <FieldProblem problems={problems} formId={formId} field="profileId" />
      {dcs.length > 1 && (
        <>
          <OptionSelect
            label="Data center the code was generated in"
            value={dc}
            options={dcs.map((d) => ({ value: d.key, label: d.label }))}
            onChange={setDataCenter}
            {...described('dataCenter')}
          />
          <FieldProblem problems={problems} formId={formId} field="dataCenter" />
        </>
      )}
      {!profile.isDemo && (
        <>
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
            Client secret
            <SecretInput
              value={clientSecret}
              onChange={setClientSecret}
              required
              {...described('clientSecret')}
            />
          </label>
          <FieldProblem problems={problems} formId={formId} field="clientSecret" />
        </>
      )}
      <label>
        Scopes the code was generated with
        <textarea
          rows={2}
          value={scopeText}
          onChange={(e) => setScopes(e.target.value)}
          {...described('scopes')}
        />
      </label>
      <FieldProblem problems={problems} formId={formId} field="scopes" />
      <label>
        Grant code
        <input
          className="mono"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder="1000.…"
          required
          {...described('code')}
        />
      </label>
      <FieldProblem problems={problems} formId={formId} field="code" />
      <div className="accounts-actions">
        {profile.isDemo && (
          <button type="button" disabled={busy === 'demoCode'} onClick={() => void generate()}>
            Generate a code in the demo console
          </button>
        )}
        <button type="submit" className="primary" disabled={busy === 'selfClient'}>
          Exchange the code
        </button>
      </div>
      <FormProblem problems={problems} formId={formId} />
    </form>
  );
}
