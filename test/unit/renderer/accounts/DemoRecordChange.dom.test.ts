// @vitest-environment happy-dom
/**
 * The record panel's "Change this record on the server": offered for records of the demo portal
 * only, it says in one sentence what will happen, sends exactly the record it is shown for, and
 * puts the engine's answer (or refusal, focused) beside its button, for that record only.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { AccountsContext } from '../../../../src/renderer/src/features/accounts/AccountsContext';
import { createAccountsStore } from '../../../../src/renderer/src/features/accounts/accountsStore';
import { DemoRecordChange } from '../../../../src/renderer/src/features/accounts/DemoRecordChange';
import { RecordsContext } from '../../../../src/renderer/src/features/records/RecordsContext';
import { createRecordsStore } from '../../../../src/renderer/src/features/records/recordsStore';
import type { AccountSummary, ProfileSummary } from '../../../../src/shared/ipc/areas/accounts';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const profile = (id: string, isDemo: boolean): ProfileSummary => ({
  id,
  name: isDemo ? 'PortalDesk demo portal' : 'Acme Projects',
  isDemo,
  multiDc: false,
  dataCenters: [{ key: 'us', label: 'US', hasAccounts: true }],
  defaultScopes: { read: [], write: [] },
  suggestedRedirectUri: null,
});

const account = (accountId: string, profileId: string): AccountSummary => ({
  accountId,
  label: accountId,
  profileId,
  profileName: profileId,
  kind: profileId === 'demo' ? 'demo' : 'self_client',
  dataCenter: 'us',
  dataCenterLabel: 'US',
  apiDomain: 'http://127.0.0.1:1',
  accountsUrl: 'http://127.0.0.1:1',
  clientId: '1000.X',
  redirectUri: null,
  scopes: [],
  portals: [],
  status: 'signed_in',
  statusMessage: null,
  active: true,
  tokens: null,
});

function renderChange(profileId: string, handlers: FakeHandlers = {}) {
  const engine = fakeEngine(handlers);
  const accounts = createAccountsStore(engine.api);
  accounts.setState({
    profiles: [profile('demo', true), profile('acme', false)],
    state: {
      accounts: [account('a1', profileId)],
      activeAccountId: 'a1',
      pendingSignIn: null,
    },
  });
  const records = createRecordsStore(engine.api);
  records.setState({
    portals: [
      {
        id: '11',
        accountId: 'a1',
        dc: 'us',
        name: 'northwind',
        orgName: null,
        timeZone: 'UTC',
        isDefault: true,
      },
    ],
  });
  const view = (recordId: string) =>
    createElement(
      RecordsContext.Provider,
      { value: records },
      createElement(
        AccountsContext.Provider,
        { value: accounts },
        createElement(DemoRecordChange, { portalId: '11', recordId }),
      ),
    );
  const rendered = render(view('22'));
  return { engine, user: userEvent.setup(), show: (id: string) => rendered.rerender(view(id)) };
}

const button = () => screen.getByRole('button', { name: 'Change this record on the server' });

describe('Change this record on the server', () => {
  it('is offered in the demo portal with what will happen, and sends exactly this record', async () => {
    const { engine, user, show } = renderChange('demo', {
      'accounts.demoChangeRecord': () => ({
        message: 'Priya Nair changed the name of this record on the demo service.',
        fields: ['name'],
        changedBy: 'Priya Nair',
      }),
    });
    const what = document.getElementById(button().getAttribute('aria-describedby')!)!;
    expect(what.textContent).toMatch(
      /^Another member of the demo portal will rename this record on the demo service .* meets theirs as a conflict in the Outbox\.$/,
    );
    await user.click(button());
    expect(engine.argsOf('accounts.demoChangeRecord')).toEqual([
      { portalId: '11', recordId: '22' },
    ]);
    expect(screen.getByRole('status').textContent).toBe(
      'Priya Nair changed the name of this record on the demo service.',
    );
    // The answer belongs to that record: another one opened shows none.
    show('23');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("says the engine's refusal beside the button and moves focus to it", async () => {
    const { user } = renderChange('demo', {
      'accounts.demoChangeRecord': () => {
        throw new Error('This record is in the recycle bin, where nobody can change it.');
      },
    });
    await user.click(button());
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(
      'This record is in the recycle bin, where nobody can change it.',
    );
    expect(document.activeElement).toBe(alert);
    expect(button().getAttribute('aria-describedby')).toBe(alert.id);
    expect(button().nextElementSibling).toBe(alert);
  });

  it('is not offered for an account of a real service', () => {
    const { engine } = renderChange('acme');
    expect(screen.queryByRole('button', { name: 'Change this record on the server' })).toBeNull();
    expect(screen.queryByText(/Try a conflict/)).toBeNull();
    expect(engine.calls).toEqual([]);
  });
});
