/** Moving about the demo portal in web mode: its sections, its first record, Work offline. */
import { expect, type Page } from '@playwright/test';

/** The demo's first sync and a replay take seconds; the rest is margin for load. */
export const ENGINE_TIMEOUT_MS = 30_000;

export const nav = (page: Page) => page.getByRole('navigation', { name: 'Sections' });
export const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
export const detail = (page: Page) => page.getByTestId('record-detail');
/** The first record of the demo's table. */
export const firstRow = (page: Page) => page.locator('.grid-row[data-record-id]').first();

export async function openSection(page: Page, name: string): Promise<void> {
  await nav(page).getByRole('button', { name, exact: true }).click();
  await expect(heading(page, name)).toBeVisible();
}

export async function setWorkOffline(page: Page, on: boolean): Promise<void> {
  await openSection(page, 'Outbox');
  const toggle = page.getByTestId('work-offline');
  if ((await toggle.isChecked()) !== on) await toggle.click();
  await expect(toggle).toBeChecked({ checked: on });
}

/** From the first-run screen into the demo portal, its records listed. */
export async function enterDemo(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try the demo portal' }).click();
  await expect(heading(page, 'Records')).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
  await expect(firstRow(page)).toBeVisible({ timeout: ENGINE_TIMEOUT_MS });
}
