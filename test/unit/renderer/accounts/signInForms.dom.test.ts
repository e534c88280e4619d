// @vitest-environment happy-dom
/**
 * The first-run screen's ways in (the demo button, "Sign in to a service", "Self Client code",
 * the service profile) as a person meets their refusals: each beside the control it is about, in
 * words, marked invalid and described by it, with focus moved there; a refusal about no control
 * beside the form's button. Refusals come from the contract's own schemas before anything is sent,
 * and from the engine's answer (a contract-checked fake engine) after.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { UserFacingError } from '../../../../src/main/bridge/dispatcher';
import { AccountsContext } from '../../../../src/renderer/src/features/accounts/AccountsContext';
import { createAccountsStore } from '../../../../src/renderer/src/features/accounts/accountsStore';
import { SignInOptions } from '../../../../src/renderer/src/features/accounts/SignInOptions';
import type { ProfileSummary } from '../../../../src/shared/ipc/areas/accounts';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

useDomTestEnvironment();

const profile = (id: string, name: string, isDemo: boolean): ProfileSummary => ({
  id,
  name,
  isDemo,
  multiDc: false,
  dataCenters: [{ key: 'us', label: 'US', hasAccounts: true }],
  defaultScopes: { read: ['PMS.portals.READ'], write: ['PMS.portals.ALL'] },
  suggestedRedirectUri: isDemo ? null : 'http://127.0.0.1:53682/callback',
});
const DEMO = profile('demo', 'PortalDesk demo portal', true);
const ACME = profile('acme', 'Acme Projects', false);

function renderOptions(profiles: ProfileSummary[], handlers: FakeHandlers = {}) {
  const engine = fakeEngine(handlers);
  const store = createAccountsStore(engine.api);
  store.setState({
    profiles,
    state: { accounts: [], activeAccountId: null, pendingSignIn: null },
  });
  render(createElement(AccountsContext.Provider, { value: store }, createElement(SignInOptions)));
  return { engine, user: userEvent.setup() };
}

const region = (name: string) => screen.getByRole('region', { name });

/**
 * The message a control is described by: it must exist, say `words`, stand right after the
 * control's label (beside it, not at the top of the page), and the control must be marked invalid.
 */
/** Waits for the answer to land (an engine call settles after the click returns). */
async function expectProblemBeside(control: HTMLElement, words: RegExp | string): Promise<void> {
  await waitFor(() => {
    expect(control.getAttribute('aria-invalid')).toBe('true');
    const id = control.getAttribute('aria-describedby');
    expect(id).toBeTruthy();
    const message = document.getElementById(id!)!;
    expect(message.textContent).toMatch(words);
    const label = control.closest('label')!;
    expect(label.nextElementSibling).toBe(message);
  });
}

/** A refusal about no control: right after the form's buttons, said at once and focused. */
async function expectFormProblem(form: HTMLElement, words: RegExp | string): Promise<void> {
  await waitFor(() => {
    const message = within(form).getByRole('alert');
    expect(message.textContent).toMatch(words);
    expect(document.activeElement).toBe(message);
    expect(form.querySelector('[aria-invalid="true"]')).toBeNull();
  });
}

describe('Self Client code', () => {
  it('an empty grant code is refused by the contract beside the code, focused, and nothing is sent', async () => {
    const { engine, user } = renderOptions([DEMO]);
    const card = region('Self Client code');
    await user.click(within(card).getByRole('button', { name: 'Exchange the code' }));
    const code = within(card).getByLabelText('Grant code');
    await expectProblemBeside(code, 'Code: required.');
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(engine.argsOf('accounts.selfClient')).toEqual([]);
    // Only the refused control is marked.
    expect(card.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);
  });

  it("the engine's refusal of the code lands beside the code, and a new try clears it", async () => {
    const words =
      'The grant code was refused (invalid_code): it expired (codes live 2 minutes), was already used, or belongs to another client. Nothing was stored.';
    let refuse = true;
    const { engine, user } = renderOptions([DEMO], {
      'accounts.selfClient': () => {
        if (refuse) throw new UserFacingError(words, { field: 'code' });
        throw new Error('The keychain is locked; nothing was stored. Unlock it and try again.');
      },
    });
    const card = region('Self Client code');
    const code = within(card).getByLabelText('Grant code');
    await user.type(code, '1000.expired');
    await user.click(within(card).getByRole('button', { name: 'Exchange the code' }));
    await expectProblemBeside(code, words);
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(engine.argsOf('accounts.selfClient')).toEqual([
      { profileId: 'demo', dataCenter: 'us', code: '1000.expired', scopes: 'PMS.portals.ALL' },
    ]);
    // A refusal about no field goes beside the button, and the code is no longer marked.
    refuse = false;
    await user.click(within(card).getByRole('button', { name: 'Exchange the code' }));
    await expectFormProblem(card.querySelector('form')!, /keychain is locked/);
    expect(code.getAttribute('aria-invalid')).toBeNull();
  });

  it('for a service of your own, every missing value is marked and focus goes to the first', async () => {
    const { engine, user } = renderOptions([ACME]);
    const card = region('Self Client code');
    await user.click(within(card).getByRole('button', { name: 'Exchange the code' }));
    const clientId = within(card).getByLabelText('Client id');
    await expectProblemBeside(clientId, 'Client id: required.');
    await expectProblemBeside(
      within(card).getByLabelText('Client secret'),
      'Client secret: required.',
    );
    await expectProblemBeside(within(card).getByLabelText('Grant code'), 'Code: required.');
    await waitFor(() => expect(document.activeElement).toBe(clientId));
    expect(engine.calls).toEqual([]);
  });

  it('each field the engine names gets the refusal beside its own control', async () => {
    for (const [field, label] of [
      ['clientId', 'Client id'],
      ['clientSecret', 'Client secret'],
      ['scopes', 'Scopes the code was generated with'],
      ['code', 'Grant code'],
      ['profileId', 'Service'],
    ] as const) {
      const words = `Refused because of the ${field}.`;
      const { user } = renderOptions([ACME], {
        'accounts.selfClient': () => {
          throw new UserFacingError(words, { field });
        },
      });
      const card = region('Self Client code');
      await user.type(within(card).getByLabelText('Client id'), '1000.CLIENT');
      await user.type(within(card).getByLabelText('Client secret'), 'secret');
      await user.type(within(card).getByLabelText('Grant code'), '1000.code');
      await user.click(within(card).getByRole('button', { name: 'Exchange the code' }));
      const control = within(card).getByLabelText(label);
      await expectProblemBeside(control, words);
      await waitFor(() => expect(document.activeElement).toBe(control));
      expect(card.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);
      document.body.innerHTML = '';
    }
  });

  it("the demo console's refusal of the scopes lands beside the scopes", async () => {
    const { user } = renderOptions([DEMO], {
      'accounts.demoSelfClientCode': () => {
        throw new UserFacingError('Enter a valid scope: "PMS.portals" is not one.', {
          field: 'scopes',
        });
      },
    });
    const card = region('Self Client code');
    const scopes = within(card).getByLabelText('Scopes the code was generated with');
    await user.clear(scopes);
    await user.type(scopes, 'PMS.portals');
    await user.click(
      within(card).getByRole('button', { name: 'Generate a code in the demo console' }),
    );
    await expectProblemBeside(scopes, /^Enter a valid scope/);
    await waitFor(() => expect(document.activeElement).toBe(scopes));
  });
});

describe('Sign in to a service', () => {
  it('a missing client id is refused before the browser opens, beside it, focused', async () => {
    const { engine, user } = renderOptions([ACME]);
    const card = region('Sign in to a service');
    await user.type(within(card).getByLabelText('Client secret'), 'secret');
    await user.click(within(card).getByRole('button', { name: 'Sign in with the browser' }));
    const clientId = within(card).getByLabelText('Client id');
    await expectProblemBeside(clientId, 'Client id: required.');
    await waitFor(() => expect(document.activeElement).toBe(clientId));
    expect(engine.calls).toEqual([]);
  });

  it("the engine's refusal of the redirect URI lands beside it; one about the service beside the button", async () => {
    let field: string | undefined = 'redirectUri';
    const { user } = renderOptions([ACME], {
      'accounts.signIn': () => {
        throw new UserFacingError(
          field ? 'The redirect URI registered for this client differs.' : 'The browser closed.',
          field ? { field } : {},
        );
      },
    });
    const card = region('Sign in to a service');
    await user.type(within(card).getByLabelText('Client id'), '1000.CLIENT');
    await user.type(within(card).getByLabelText('Client secret'), 'secret');
    await user.click(within(card).getByRole('button', { name: 'Sign in with the browser' }));
    const redirect = within(card).getByLabelText('Redirect URI (exactly as registered)');
    await expectProblemBeside(redirect, /redirect URI registered/);
    await waitFor(() => expect(document.activeElement).toBe(redirect));
    field = undefined;
    await user.click(within(card).getByRole('button', { name: 'Sign in with the browser' }));
    await expectFormProblem(card.querySelector('form')!, 'The browser closed.');
  });
});

describe('Service profile', () => {
  it('text that is not JSON, a profile the contract refuses, and the engine refusing its id: each beside the box', async () => {
    const { engine, user } = renderOptions([DEMO], {
      'accounts.addProfile': () => {
        throw new UserFacingError('The profile id "demo" belongs to the built-in demo portal.', {
          field: 'profile',
        });
      },
    });
    const card = region('Sign in to a service');
    const box = within(card).getByLabelText('Service profile (JSON)');
    const add = within(card).getByRole('button', { name: 'Add the profile' });
    await user.type(box, 'not json');
    await user.click(add);
    await expectProblemBeside(box, /not valid JSON; nothing was saved/);
    await waitFor(() => expect(document.activeElement).toBe(box));

    await user.clear(box);
    await user.click(box);
    await user.paste('{"id": "acme"}');
    await user.click(add);
    // The contract's own schema, in words: where in the profile, and what is wrong.
    await expectProblemBeside(box, /^Profile, name: required\./);
    expect(engine.calls).toEqual([]);

    await user.clear(box);
    await user.click(box);
    await user.paste(
      JSON.stringify({
        id: 'demo',
        name: 'Mine',
        dataCenters: {
          us: { api: 'https://api.example.com', accounts: 'https://accounts.example.com' },
        },
        apiPrefix: '/api/v3',
        scopePrefixes: { api: 'PMS', files: 'PMSFiles' },
        commentSegment: 'record comments',
        legacyAuthScheme: 'PMS-oauthtoken',
        multiDc: false,
      }),
    );
    await user.click(add);
    expect(engine.argsOf('accounts.addProfile')).toHaveLength(1);
    await expectProblemBeside(box, 'The profile id "demo" belongs to the built-in demo portal.');
    await waitFor(() => expect(document.activeElement).toBe(box));
  });
});

describe('Try the demo portal', () => {
  it('a demo that cannot start says so beside its button, focused', async () => {
    const { user } = renderOptions([DEMO], {
      'accounts.signInDemo': () => {
        throw new Error('The demo portal could not start (port in use); nothing was changed.');
      },
    });
    const card = region('Try the demo portal');
    const button = within(card).getByRole('button', { name: 'Try the demo portal' });
    await user.click(button);
    const message = within(card).getByRole('alert');
    expect(message.textContent).toMatch(/could not start/);
    await waitFor(() => expect(document.activeElement).toBe(message));
    expect(button.getAttribute('aria-describedby')).toBe(message.id);
    expect(button.nextElementSibling).toBe(message);
  });
});
