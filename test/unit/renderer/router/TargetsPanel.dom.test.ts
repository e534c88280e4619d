// @vitest-environment happy-dom
/**
 * The targets list shows a webhook whose address is its own credential (Slack's) without its
 * token, in every screenshot of the list; the form, opened to edit it, has the address whole, and
 * saving it unchanged sends the address as it was, so the destination keeps working.
 */
import { createElement } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TargetsPanel } from '../../../../src/renderer/src/features/router/TargetsPanel';
import type { TargetView } from '../../../../src/shared/ipc/areas/router';
import { useDomTestEnvironment } from '../support/dom';
import { overviewOf, renderRouterPanel } from './routerFixtures';

useDomTestEnvironment();

const TOKEN = 'x7Kq2LmP9vRt4WzN8cYb3HdF';
const URL_WHOLE = `https://hooks.slack.com/services/T0123ABCD/B0456EFGH/${TOKEN}`;

const SLACK: TargetView = {
  id: '9002',
  name: 'team channel',
  kind: 'webhook',
  status: 'active',
  url: URL_WHOLE,
  method: 'POST',
  headers: [],
  query: [],
  rateLimitPerSecond: 300,
  timeoutMs: 10_000,
  fault: null,
};

describe('a webhook target whose address is its credential', () => {
  it('is listed without its token, and edited and saved with its address whole', async () => {
    const { engine } = await renderRouterPanel(
      createElement(TargetsPanel),
      () => overviewOf([], { targets: [SLACK] }),
      { 'router.saveTarget': () => SLACK },
    );
    expect(
      screen.getByText('POST https://hooks.slack.com/services/T0123ABCD/B0456EFGH/[redacted]'),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain(TOKEN);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect((screen.getByLabelText('URL') as HTMLInputElement).value).toBe(URL_WHOLE);
    await user.click(screen.getByRole('button', { name: 'Save target' }));
    expect(engine.argsOf('router.saveTarget')).toEqual([
      expect.objectContaining({ id: SLACK.id, url: URL_WHOLE }),
    ]);
  });
});
