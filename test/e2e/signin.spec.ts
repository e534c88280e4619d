import { expect, test } from '@playwright/test';
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
