/**
 * The records workspace during a fresh sign-in's first sync, against an emulator process whose
 * record lists answer slowly (injected latency): the empty module shows the sync's progress, never
 * "run a sync", until its records arrive; a custom module the service has no records of says so
 * once its pull is done; the built-in modules are named, not listed.
 */
import { expect, test, type Page } from '@playwright/test';
import { startEmulatorProcess, type EmulatorProcess } from './emulatorProcess';
import { startWebModeWithKeychain } from './keychainWebMode';
import { signInWithSelfClient } from './selfClientSignIn';
import type { RunningWebMode } from './webMode';

let emulator: EmulatorProcess;
let app: RunningWebMode;

test.beforeAll(async () => {
  [emulator, app] = await Promise.all([
    startEmulatorProcess(['--auto-approve', '--records', '400']),
    startWebModeWithKeychain(),
  ]);
});
test.afterAll(async () => {
  await Promise.all([app?.stop(), emulator?.stop()]);
});

test.setTimeout(120_000);

/** Long enough to watch the first pages arrive; short enough for the pull to end in seconds. */
const SLOW_LIST_MS = 5000;

const view = (page: Page) => page.locator('.records');

test('the first sync: progress instead of "run a sync", then the records; none on the service said so', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1300, height: 760 });
  await page.emulateMedia({ colorScheme: 'light' });
  // A custom module the service holds no record of, in every portal.
  const rest = await emulator.restAs();
  for (const portalId of emulator.facts.portals) {
    const created = await rest('POST', `/api/v3/portal/${portalId}/settings/modules`, {
      singular_name: 'Gadget',
      plural_name: 'Gadgets',
      icon_class: 'icon-box',
      is_global_module: true,
      is_all_projects: true,
      is_overview_needed: false,
      projects: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  await emulator.setFaults([{ path: '/entities$', method: 'GET', latencyMs: SLOW_LIST_MS }]);

  await signInWithSelfClient(page, app, emulator, 'Emulator');
  const nav = page.getByRole('navigation', { name: 'Sections' });

  // Assets has no records in the mirror yet: the sync's progress, live.
  const modules = nav.getByRole('list', { name: 'Modules' });
  const assets = modules.getByRole('button', { name: /^Assets/ });
  await expect(assets).toBeVisible({ timeout: 30_000 });
  await assets.click();
  const pulling = page
    .getByTestId('module-sync')
    .filter({ hasText: 'Pulling Assets from the service…' });
  await expect(pulling).toBeVisible();
  await expect(pulling).toContainText(/records so far · Pulling records/);
  await expect(pulling.getByRole('progressbar')).toBeVisible();
  await expect(view(page)).not.toContainText('Run a sync');
  await view(page).screenshot({ path: 'test-results/records-first-sync.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await view(page).screenshot({ path: 'test-results/records-first-sync-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });

  // The records arrive and take the place of the progress.
  await emulator.setFaults([]);
  await expect(page.getByTestId('records-total')).toHaveText(/^[1-9][\d,]* records$/, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('module-sync')).toHaveCount(0);

  // The built-in modules are named apart, with no count and no promise of a sync.
  await expect(modules).not.toContainText('Projects');
  await expect(page.getByTestId('builtin-modules')).toContainText('Built-in, not mirrored');

  // The module the service has none of: once its pull is done, it says so.
  await modules.getByRole('button', { name: /^Gadgets/ }).click();
  const none = page.getByTestId('module-sync');
  await expect(none).toHaveText(
    /The service has no Gadgets: the sync (just now|\d+ min ago) found none\./,
    {
      timeout: 60_000,
    },
  );
  await expect(view(page)).not.toContainText('Run a sync');
  await view(page).screenshot({ path: 'test-results/records-none-on-service.png' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await view(page).screenshot({ path: 'test-results/records-none-on-service-dark.png' });
});
