import { useId, useRef, useState, type FormEvent } from 'react';
import { requests } from '../../../../shared/ipc/contract';
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

const CONTROLS = ['profile'];

/**
 * Paste a service profile (JSON): checked against the contract's schema before it is sent, so
 * what is wrong shows beside the box (as the engine's refusal does), and focus moves there.
 */
export function AddProfileForm() {
  const addProfile = useAccounts((s) => s.addProfile);
  const busy = useAccounts((s) => s.busy === 'profile');
  const [json, setJson] = useState('');
  const [problems, setProblems] = useState<FormProblems>(NO_PROBLEMS);
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  useFocusFirstProblem(problems, formRef);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    let profile: unknown;
    try {
      profile = JSON.parse(json);
    } catch {
      setProblems({
        fields: new Map([
          [
            'profile',
            json.trim() === ''
              ? 'Paste the service profile: a JSON file with the accounts and API addresses per data center.'
              : 'The service profile is not valid JSON; nothing was saved. Paste the whole file.',
          ],
        ]),
        form: null,
      });
      return;
    }
    const args = { profile };
    const refused = problemsOfInput(requests['accounts.addProfile'].args, args, CONTROLS);
    if (refused) {
      setProblems(refused);
      return;
    }
    setProblems(NO_PROBLEMS);
    const outcome = await addProfile(requests['accounts.addProfile'].args.parse(args).profile);
    if (outcome.ok) setJson('');
    else setProblems(problemsOfRefusal(outcome.refusal, CONTROLS));
  };
  return (
    <form
      ref={formRef}
      className="accounts-form"
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <label>
        Service profile (JSON)
        <textarea
          rows={5}
          className="mono"
          value={json}
          onChange={(e) => setJson(e.target.value)}
          placeholder='{"id": "service", "name": "…", "dataCenters": {"us": {"api": "https://…", "accounts": "https://…"}}, …}'
          required
          {...problemAttributes(problems, formId, 'profile')}
        />
      </label>
      <FieldProblem problems={problems} formId={formId} field="profile" />
      <button type="submit" disabled={busy}>
        Add the profile
      </button>
      <FormProblem problems={problems} formId={formId} />
    </form>
  );
}
