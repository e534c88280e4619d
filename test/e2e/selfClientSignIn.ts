/** Signing in to an emulator process through the first-run screen, as a user would. */
import { expect, type Page } from '@playwright/test';
import type { EmulatorProcess } from './emulatorProcess';
import type { RunningWebMode } from './webMode';

/** A fresh sign-in and its first screen take a few seconds; the rest is margin for load. */
const SIGN_IN_TIMEOUT_MS = 20_000;

/** Adds the emulator as a service and signs in with a Self Client code, as a user would. */
export async function signInWithSelfClient(
  page: Page,
  app: RunningWebMode,
  emulator: EmulatorProcess,
  serviceName: string,
): Promise<void> {
  await page.goto(app.url);
  const connect = page.getByRole('region', { name: 'Sign in to a service' });
  await connect
    .getByLabel('Service profile (JSON)')
    .fill(emulator.profileJson('e2e-service', serviceName));
  await connect.getByRole('button', { name: 'Add the profile' }).click();
  const selfClient = page.getByRole('region', { name: 'Self Client code' });
  await selfClient.getByLabel('Service').selectOption({ label: serviceName });
  await selfClient.getByLabel('Client id').fill(emulator.facts.client_id);
  await selfClient.getByLabel('Client secret').fill(emulator.facts.client_secret);
  const scopes = await selfClient.getByLabel('Scopes the code was generated with').inputValue();
  await selfClient
    .getByLabel('Grant code')
    .fill(await emulator.selfClientCode(scopes.replace(/\s+/g, '')));
  await selfClient.getByRole('button', { name: 'Exchange the code' }).click();
  // A refusal (no keychain, say) shows as an alert on this screen: fail with its words.
  const records = page.getByRole('heading', { level: 1, name: 'Records' });
  const refusal = page.getByRole('main', { name: 'Welcome to PortalDesk' }).getByRole('alert');
  await expect(records.or(refusal)).toBeVisible({ timeout: SIGN_IN_TIMEOUT_MS });
  if (await refusal.isVisible()) throw new Error(`Sign-in refused: ${await refusal.innerText()}`);
}
