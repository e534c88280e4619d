import { expect, test, type Locator, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmulatorProcess } from './emulatorProcess';
import { startWebModeWithKeychain } from './keychainWebMode';
import { signInWithSelfClient } from './selfClientSignIn';
import { startWebMode } from './webMode';

test('the headless router runs a config end to end: --json line, ingress, webhook, admin API', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'portaldesk-e2e-router-'));
  const received: { attempt: number; rule_id: string }[] = [];
  const hook = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(JSON.parse(body));
      // The first call fails, so the retry (a minute of virtual time later) is attempt 2.
      response.writeHead(received.length === 1 ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const config = {
    account: { org_id: '70001', project: { name: 'e2e', environment: 'test', id: '70002' } },
    publishers: [
      {
        id: '11',
        type: 'custom',
        status: 'active',
        api_key: 'e2e-key-0123456789abcdef',
        events: [{ id: '21', api_name: 'ticket_closed' }],
      },
    ],
    targets: [
      {
        id: '31',
        url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
        method: 'POST',
        status: 'active',
        headers: {},
      },
    ],
    rules: [{ id: '41', status: 'active', retry_count: 1, events: ['21'], targets: ['31'] }],
  };
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  // 600x: the one-minute backoff takes 100 ms.
  const child = spawn(
    process.execPath,
    [
      'out/main/router.js',
      '--config',
      path.join(dir, 'config.json'),
      '--json',
      '--time-scale',
      '600',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const first = await new Promise<{ ingress: string; admin: string; admin_token: string }>(
      (resolve, reject) => {
        let text = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]!));
        });
        child.once('exit', (code) => reject(new Error(`router exited with ${code}`)));
      },
    );
    expect(first.ingress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const posted = await fetch(`${first.ingress}/publishers/11/events/ticket_closed`, {
      method: 'POST',
      headers: { 'x-api-key': 'e2e-key-0123456789abcdef', 'content-type': 'application/json' },
      body: JSON.stringify({ ticket: 7 }),
    });
    expect(posted.status).toBe(202);
    const { id } = (await posted.json()) as { id: string };
    expect((await fetch(`${first.admin}/events/${id}`)).status).toBe(401);
    await expect
      .poll(async () => {
        const reply = await fetch(`${first.admin}/events/${id}`, {
          headers: { authorization: `Bearer ${first.admin_token}` },
        });
        return ((await reply.json()) as { overall_status: string }).overall_status;
      })
      .toBe('Success');
    expect(received.map((payload) => payload.attempt)).toEqual([1, 2]);
    expect(received[0]!.rule_id).toBe('41');
  } finally {
    child.kill('SIGTERM');
    hook.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const SLACK_PATH = '/services/T0123ABCD/B0456EFGH/';
const SLACK_TOKEN = 'x7Kq2LmP9vRt4WzN8cYb3HdF';

test('the router UI: a custom publisher, a request-bin rule, a test event and its detail', async ({
  page,
}) => {
  const app = await startWebMode();
  try {
    await page.goto(app.url);
    const skip = page.getByRole('button', { name: 'Skip for now' });
    if (await skip.isVisible().catch(() => false)) await skip.click();
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('button', { name: 'Event router' })
      .click();
    await expect(page.getByTestId('router-view')).toBeVisible();

    await page.getByRole('tab', { name: 'Publishers & schemas' }).click();
    await page.getByLabel('New publisher name').fill('Shop');
    await page.getByRole('button', { name: 'Add custom publisher' }).click();
    await expect(page.getByText(/API key for Shop \(shown once/)).toBeVisible();
    await expect(page.getByTestId('router-secret')).toHaveText(/^pdk_[0-9a-f]{32,}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect(
      page.getByText(/^(Copied\.|The clipboard is not available here)/).first(),
    ).toBeVisible();
    await page.getByLabel('New event API name').fill('order_created');
    await page.getByRole('button', { name: 'Add event' }).click();
    await page.getByRole('button', { name: 'order_created' }).click();
    await page.getByLabel('Sample for order_created').fill('{"order": "A-1", "amount": 120}');
    await page.getByRole('button', { name: 'Generate schema from sample' }).click();
    await expect(
      page.getByText('Schema version 1 generated from the sample (no key required).'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Start capture' }).click();
    await expect(page.getByTestId('router-capture-countdown')).toContainText('valid for 1');

    await page.getByRole('tab', { name: 'Targets' }).click();
    await page.getByRole('button', { name: 'New target' }).click();
    await page.getByLabel('Name', { exact: true }).fill('bin');
    await page.getByLabel('Kind').selectOption('request_bin');
    await page.getByRole('button', { name: 'Save target' }).click();
    // A Slack webhook: its address is its credential, so the list shows it without the token.
    await page.getByRole('button', { name: 'New target' }).click();
    await page.getByLabel('Name', { exact: true }).fill('team channel');
    await page.getByLabel('URL').fill(`https://hooks.slack.com${SLACK_PATH}${SLACK_TOKEN}`);
    await page.getByRole('button', { name: 'Save target' }).click();
    const targets = page.getByTestId('router-view');
    await expect(
      targets.getByText(`POST https://hooks.slack.com${SLACK_PATH}[redacted]`),
    ).toBeVisible();
    await expect(targets).not.toContainText(SLACK_TOKEN);
    await shoot(page, targets, 'router-targets-path-secret');

    await page.getByRole('tab', { name: 'Rules' }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByLabel('Name', { exact: true }).fill('big orders');
    await page.getByLabel('Shop: order_created').check();
    await page.getByRole('checkbox', { name: 'bin' }).check();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Path').selectOption('amount');
    await page.getByLabel('Comparator').selectOption('gte');
    const ruleForm = page.getByRole('form', { name: 'Rule' });
    await expect(
      ruleForm.getByText('Conditions (1: deliver only the events that match)'),
    ).toBeVisible();
    // An empty number is refused beside Save, in words, with the focus there.
    await page.getByLabel('Value', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save rule' }).click();
    const refusal = ruleForm.getByRole('alert');
    await expect(refusal).toHaveText(/^Filter, condition 1, value: .*Nothing was changed\.$/);
    await expect(refusal).toBeFocused();
    await ruleForm.screenshot({ path: 'test-results/router-rule-refused-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await ruleForm.screenshot({ path: 'test-results/router-rule-refused-dark.png' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByLabel('Value', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect(page.getByRole('cell', { name: 'big orders' })).toBeVisible();

    await page.getByRole('tab', { name: 'Publishers & schemas' }).click();
    await page.getByRole('button', { name: 'order_created' }).click();
    await page.getByRole('button', { name: 'Send test event from sample' }).click();
    await page.getByRole('tab', { name: 'Event log' }).click();
    await page.getByRole('listbox', { name: 'Events' }).getByRole('option').first().click();
    const detail = page.getByTestId('router-event-detail');
    await expect(detail.getByText('Success').first()).toBeVisible();
    await expect(detail.getByText(/amount >= 100 — was 120/)).toBeVisible();
    await page.screenshot({ path: 'test-results/router.png', fullPage: true });
  } finally {
    await app.stop();
  }
});

/** Light and dark screenshots of one part of the page, under test-results/. */
async function shoot(page: Page, part: Locator, name: string): Promise<void> {
  await part.screenshot({ path: `test-results/${name}-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await part.screenshot({ path: `test-results/${name}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The boxes of a list's rows and of everything inside each, in page pixels. */
async function rowBoxes(rows: Locator) {
  return rows.evaluateAll((elements) =>
    elements.map((row) => {
      type Edges = { top: number; bottom: number; left: number; right: number };
      const box = (element: { getBoundingClientRect(): Edges }): Edges => {
        const r = element.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      };
      return { row: box(row), parts: [...row.querySelectorAll('*')].map(box) };
    }),
  );
}

test('issue 19: required keys chosen, the event picker, a long publisher name in the log, the request bin', async ({
  page,
}) => {
  const app = await startWebMode();
  const longName =
    'Warehouse and fulfilment integration for the northern distribution centres, including returns, cross-docking and seasonal overflow';
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(app.url);
    const skip = page.getByRole('button', { name: 'Skip for now' });
    if (await skip.isVisible().catch(() => false)) await skip.click();
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('button', { name: 'Event router' })
      .click();

    // A schema from a sample: only the ticked keys are required, and that can change later.
    await page.getByRole('tab', { name: 'Publishers & schemas' }).click();
    await page.getByLabel('New publisher name').fill(longName);
    await page.getByRole('button', { name: 'Add custom publisher' }).click();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByLabel('New event API name').fill('order_created');
    await page.getByRole('button', { name: 'Add event' }).click();
    await page.getByRole('button', { name: 'order_created' }).click();
    await page
      .getByLabel('Sample for order_created')
      .fill(
        '{"order": "A-1", "amount": 120, "customer": {"email": "a@example.com", "name": "Ada"}}',
      );
    const sampleKeys = page.getByRole('group', { name: 'Required keys of the sample' });
    await sampleKeys.getByRole('checkbox', { name: 'order', exact: true }).check();
    await sampleKeys.getByRole('checkbox', { name: 'customer.email' }).check();
    await page.getByRole('button', { name: 'Generate schema from sample' }).click();
    await expect(
      page.getByText(
        'Schema version 1 generated from the sample (required: order, customer.email).',
      ),
    ).toBeVisible();
    // The box follows the engine's answer (a new schema version), not the click.
    await page.getByRole('checkbox', { name: 'amount required' }).click();
    await expect(page.getByText('amount is required from schema version 2.')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'amount required' })).toBeChecked();
    await page.getByRole('button', { name: 'Validate sample' }).click();
    await expect(page.getByText('Valid against version 2.')).toBeVisible();
    await shoot(page, page.locator('.router-schema'), 'router-schema-required');

    await page.getByRole('tab', { name: 'Targets' }).click();
    await page.getByRole('button', { name: 'New target' }).click();
    await page.getByLabel('Name', { exact: true }).fill('bin');
    await page.getByLabel('Kind').selectOption('request_bin');
    await page.getByRole('button', { name: 'Save target' }).click();

    // The rule form's events: searched, grouped, counted.
    await page.getByRole('tab', { name: 'Rules' }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByLabel('Name', { exact: true }).fill('orders');
    const picker = page.getByRole('group', { name: 'Events', exact: true });
    await picker.getByRole('checkbox', { name: 'Selected only' }).isVisible();
    await expect(picker.getByTestId('event-picker-count')).toHaveText('0 of 7 selected');
    await picker.getByRole('checkbox', { name: 'All of Authentication activity' }).check();
    await picker.getByRole('checkbox', { name: 'Authentication activity: SignedOut' }).uncheck();
    await expect(
      picker.getByRole('checkbox', { name: 'All of Authentication activity' }),
    ).toHaveJSProperty('indeterminate', true);
    await picker.getByRole('searchbox', { name: 'Search events' }).fill('ORDER');
    await expect(picker.getByTestId('event-picker-count')).toHaveText('2 of 7 selected · 1 shown');
    await picker.getByRole('checkbox', { name: `${longName}: order_created` }).check();
    await picker.getByRole('searchbox', { name: 'Search events' }).fill('');
    await expect(picker.getByTestId('event-picker-count')).toHaveText('3 of 7 selected');
    await shoot(page, picker, 'router-event-picker');
    await picker.getByRole('checkbox', { name: 'All of Authentication activity' }).uncheck();
    await page.getByRole('checkbox', { name: 'bin' }).check();
    await page.getByRole('button', { name: 'Save rule' }).click();
    await expect(page.getByRole('cell', { name: 'orders' })).toBeVisible();

    // Three events from the publisher with the long name.
    await page.getByRole('tab', { name: 'Publishers & schemas' }).click();
    await page.getByRole('button', { name: 'order_created' }).click();
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: 'Send test event from sample' }).click();
      await expect(page.getByText(/^Test event \d+ sent\.$/)).toBeVisible();
    }

    // The event log: one line per row, the long name cut with an ellipsis and whole in a tooltip.
    await page.getByRole('tab', { name: 'Event log' }).click();
    const rows = page.getByRole('listbox', { name: 'Events' }).getByRole('option');
    await expect(rows).toHaveCount(3);
    await expect(rows.first().getByTitle(longName)).toBeVisible();
    const boxes = await rowBoxes(rows);
    for (const [index, { row, parts }] of boxes.entries()) {
      for (const part of parts) {
        expect(part.top, `row ${index}: a part starts above its row`).toBeGreaterThanOrEqual(
          row.top - 0.5,
        );
        expect(part.bottom, `row ${index}: a part runs below its row`).toBeLessThanOrEqual(
          row.bottom + 0.5,
        );
      }
      const next = boxes[index + 1];
      if (next) {
        const bottom = Math.max(row.bottom, ...parts.map((part) => part.bottom));
        const top = Math.min(next.row.top, ...next.parts.map((part) => part.top));
        expect(bottom, `rows ${index} and ${index + 1} overlap`).toBeLessThanOrEqual(top + 0.5);
      }
    }
    await shoot(page, page.getByRole('listbox', { name: 'Events' }), 'router-log-long-publisher');

    // The request bin: newest first, times, folded headers, the body as a tree.
    await page.getByRole('tab', { name: 'Targets' }).click();
    await page.getByRole('button', { name: 'Show received' }).click();
    const bin = page.getByRole('region', { name: 'Received by bin' });
    await expect(bin.getByRole('article')).toHaveCount(3);
    const first = bin.getByRole('article').first();
    await expect(first).toContainText(/POST sandbox:\/\/request_bin\/\d+/);
    await expect(first).toContainText(/· (just now|\d+ s ago)/);
    await first.getByText(/^Headers \(\d+\)$/).click();
    await expect(first.getByText('content-type')).toBeVisible();
    const tree = first.getByRole('list', { name: 'Body' });
    await expect(tree).toContainText('events: [1 item]');
    await tree.getByText('0: {5 keys}').click();
    await tree.getByText('data: {3 keys}').click();
    await expect(tree).toContainText('order: "A-1"');
    await page.setViewportSize({ width: 1280, height: 1500 });
    await shoot(page, bin, 'router-request-bin');
  } finally {
    await app.stop();
  }
});

test('issue 19: the event picker over a signed-in portal, grouped by publisher and scope', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const [emulator, app] = await Promise.all([
    startEmulatorProcess(['--auto-approve', '--records', '20']),
    startWebModeWithKeychain(),
  ]);
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInWithSelfClient(page, app, emulator, 'Router test service');
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('button', { name: 'Event router' })
      .click();
    await page.getByRole('tab', { name: 'Rules' }).click();
    await page.getByRole('button', { name: 'New rule' }).click();
    const picker = page.getByRole('group', { name: 'Events', exact: true });
    // The first sync run ends with the portal's suite publisher: five scopes per module.
    const create = picker.getByRole('group', { name: /, Create$/ }).first();
    await expect(create).toBeVisible({ timeout: 30_000 });
    const count = picker.getByTestId('event-picker-count');
    const total = Number(/of (\d+) selected/.exec((await count.textContent()) ?? '')![1]);
    expect(total).toBeGreaterThan(6);

    const portalName = (await create.getAttribute('aria-label'))!.replace(/, Create$/, '');

    // Every portal's Create events are shown; the first portal's group selects only its own.
    await picker.getByRole('searchbox', { name: 'Search events' }).fill('create');
    const shown = await picker.getByRole('listitem').count();
    await create.getByRole('checkbox', { name: 'All shown Create events' }).check();
    const creates = await create.getByRole('listitem').count();
    expect(creates).toBeGreaterThan(1);
    await expect(count).toHaveText(`${creates} of ${total} selected · ${shown} shown`);
    await picker.getByRole('searchbox', { name: 'Search events' }).fill('');
    // Back to everything: the portal's own checkbox is now mixed, the selection kept.
    await expect(
      picker.getByRole('checkbox', { name: `All of ${portalName}`, exact: true }),
    ).toHaveJSProperty('indeterminate', true);
    await expect(count).toHaveText(`${creates} of ${total} selected`);
    await picker.getByRole('checkbox', { name: 'Selected only' }).check();
    await expect(picker.getByRole('listitem')).toHaveCount(creates);
    await picker.getByRole('checkbox', { name: 'Selected only' }).uncheck();
    // One portal: its five scopes, Create all picked, the portal mixed.
    await picker.getByRole('searchbox', { name: 'Search events' }).fill(portalName);
    await expect(
      picker.getByRole('checkbox', { name: `All shown of ${portalName}`, exact: true }),
    ).toHaveJSProperty('indeterminate', true);
    await shoot(page, picker, 'router-event-picker-portal');
  } finally {
    await Promise.all([app.stop(), emulator.stop()]);
  }
});
