import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
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
    await expect(page.getByText('Schema version 1 generated from the sample.')).toBeVisible();
    await page.getByRole('button', { name: 'Start capture' }).click();
    await expect(page.getByTestId('router-capture-countdown')).toContainText('valid for 1');

    await page.getByRole('tab', { name: 'Targets' }).click();
    await page.getByRole('button', { name: 'New target' }).click();
    await page.getByLabel('Name', { exact: true }).fill('bin');
    await page.getByLabel('Kind').selectOption('request_bin');
    await page.getByRole('button', { name: 'Save target' }).click();

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
