import { expect, test } from '@playwright/test';
import { startWebModeWithKeychain } from './keychainWebMode';
import { startWebMode, type RunningWebMode } from './webMode';

let app: RunningWebMode;
test.beforeEach(async () => {
  app = await startWebMode();
});
test.afterEach(async () => {
  await app.stop();
});

test('demo sign-in from the first-run screen ends on the records view with the portal named', async ({
  page,
}) => {
  await page.goto(app.url);

  // A fresh data directory: no account, so the first-run screen and its three ways in.
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome to PortalDesk' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign in to a service' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Self Client code' })).toBeVisible();
  await page.screenshot({ path: 'test-results/signin-first-run.png', fullPage: true });

  await page.getByRole('button', { name: 'Try the demo portal' }).click();

  // The embedded emulator starts and the real flow signs in to it; the app replaces the screen.
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: 'Welcome to PortalDesk' })).toHaveCount(0);
  const switcher = page.getByTestId('account-switcher');
  await expect(switcher).toContainText(/northwind · US/);
  await page.screenshot({ path: 'test-results/signin-records.png' });

  // The account page: data center, scopes, and the token's status (one token in the window).
  await switcher.getByRole('button', { name: 'Accounts…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: /northwind/ })).toBeVisible();
  await expect(dialog.getByTestId('token-refreshes')).toHaveText('1 of 10');
  await expect(dialog.getByTestId('token-valid-until')).toContainText('valid until');
  await expect(dialog.getByText(/PMS\.portals\.READ/)).toBeVisible();
  await page.screenshot({ path: 'test-results/signin-account.png' });

  // The sign-in outlives a restart of the page: no first-run screen after a reload.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Records' })).toBeVisible();
  await expect(page.getByTestId('account-switcher')).toContainText('northwind');
});

test('a Self Client code refusal shows beside the grant code on the first-run screen, with focus there', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto(app.url);
  const card = page.getByRole('region', { name: 'Self Client code' });
  const code = card.getByLabel('Grant code');
  const exchange = card.getByRole('button', { name: 'Exchange the code' });

  // Nothing pasted: the contract's own check refuses it before anything is sent.
  await exchange.click();
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  const problem = page.locator(`#${await code.getAttribute('aria-describedby')}`);
  await expect(problem).toHaveText('Code: required.');
  // Beside the code, not at the top of the page: it follows the code's box directly.
  const codeBox = (await code.boundingBox())!;
  const problemBox = (await problem.boundingBox())!;
  expect(problemBox.y - (codeBox.y + codeBox.height)).toBeGreaterThanOrEqual(0);
  expect(problemBox.y - (codeBox.y + codeBox.height)).toBeLessThan(40);

  // A code the demo console never issued: the service refuses it, and that lands beside it too.
  await code.fill('1000.never-issued');
  await exchange.click();
  await expect(problem).toContainText('The grant code was refused (invalid_code)', {
    timeout: 30_000,
  });
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome to PortalDesk' }),
  ).toBeVisible();
  await card.screenshot({ path: 'test-results/signin-self-client-error-light.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await card.screenshot({ path: 'test-results/signin-self-client-error-dark.png' });
});

test('a sign-in waiting for the browser can be opened again or its address copied, never put on a command line', async ({
  page,
}) => {
  // This test's own web mode, with a keychain (a service's sign-in keeps its secret there).
  const keyed = await startWebModeWithKeychain();
  try {
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.goto(keyed.url);
    const form = page.getByRole('region', { name: 'Sign in to a service' });
    await form.getByLabel('Service profile (JSON)').fill(
      JSON.stringify({
        id: 'acme',
        name: 'Acme Projects',
        dataCenters: {
          us: { api: 'https://api.example.test', accounts: 'https://accounts.example.test' },
        },
        apiPrefix: '/api/v3',
        scopePrefixes: { api: 'PMS', files: 'PMSFiles' },
        commentSegment: 'comments',
        legacyAuthScheme: 'Acme-oauthtoken',
        multiDc: false,
      }),
    );
    await form.getByRole('button', { name: 'Add the profile' }).click();
    await form.getByLabel('Client id').fill('1000.ABCDEFGHIJ');
    await form.getByLabel('Client secret').fill('a-client-secret');
    await form
      .getByLabel('Redirect URI (exactly as registered)')
      .fill('http://127.0.0.1:53682/callback');
    await form.getByRole('button', { name: 'Sign in with the browser' }).click();

    const banner = page.getByTestId('pending-sign-in');
    await expect(banner).toContainText('Waiting for you to finish signing in to Acme Projects');
    const again = banner.getByRole('link', { name: 'Open the sign-in page again' });
    const address = new URL((await again.getAttribute('href'))!);
    expect(address.origin).toBe('https://accounts.example.test');
    expect(address.searchParams.get('state')).toBeTruthy();

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await banner.getByRole('button', { name: 'Copy the sign-in address' }).click();
    await expect(banner).toContainText('Copied: paste it into your browser’s address bar.');
    const pasted = await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    );
    expect(pasted).toBe(address.href);
    await page.screenshot({ path: 'test-results/signin-pending-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: 'test-results/signin-pending-dark.png' });

    await banner.getByRole('button', { name: 'Cancel sign-in' }).click();
    await expect(banner).toHaveCount(0);
  } finally {
    await keyed.stop();
  }
});
