// @vitest-environment happy-dom
/**
 * The pending sign-in's banner: the page opens again, and its address can be copied to paste in
 * a browser that cannot read the private page the app opens it through (the address never goes
 * on a command line).
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AccountsContext } from '../../../../src/renderer/src/features/accounts/AccountsContext';
import { createAccountsStore } from '../../../../src/renderer/src/features/accounts/accountsStore';
import { PendingSignInBanner } from '../../../../src/renderer/src/features/accounts/PendingSignInBanner';
import { useDomTestEnvironment } from '../support/dom';
import { fakeEngine } from '../support/fakeEngine';

useDomTestEnvironment();

const AUTH_URL =
  'https://accounts.example.test/oauth/v2/auth?client_id=c&state=s3cr3t&code_challenge=x';

function renderBanner() {
  const store = createAccountsStore(fakeEngine({}).api);
  store.setState({
    profiles: [],
    state: {
      accounts: [],
      activeAccountId: null,
      pendingSignIn: {
        profileName: 'Acme Projects',
        dataCenter: 'us',
        deadline: null,
        authUrl: AUTH_URL,
      },
    },
  });
  render(
    createElement(AccountsContext.Provider, { value: store }, createElement(PendingSignInBanner)),
  );
  return userEvent.setup();
}

describe('the pending sign-in banner', () => {
  it('copies the sign-in address and says where to paste it', async () => {
    const user = renderBanner();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    expect(screen.getByRole('link', { name: 'Open the sign-in page again' })).toHaveProperty(
      'href',
      AUTH_URL,
    );
    await user.click(screen.getByRole('button', { name: 'Copy the sign-in address' }));
    expect(writeText).toHaveBeenCalledWith(AUTH_URL);
    await waitFor(() => expect(screen.getByText(/paste it into your browser/)).toBeTruthy());
  });

  it('says so when the clipboard refuses, pointing at the other way', async () => {
    const user = renderBanner();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(screen.getByRole('button', { name: 'Copy the sign-in address' }));
    await waitFor(() => expect(screen.getByText(/The clipboard refused the address/)).toBeTruthy());
  });
});
