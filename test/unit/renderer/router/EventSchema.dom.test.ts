// @vitest-environment happy-dom
/**
 * Issue 19: a schema generated from a sample marked every key required. Now the sample's keys
 * (nested ones too) are listed with a "required" tick, none ticked by default; generating sends
 * the ticks, and the saved schema's keys can be made required or optional afterwards.
 */
import { createElement } from 'react';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PublishersPanel } from '../../../../src/renderer/src/features/router/PublishersPanel';
import type {
  EventConfigView,
  RouterOverview,
  SchemaVersionView,
} from '../../../../src/shared/ipc/areas/router';
import { useDomTestEnvironment } from '../support/dom';
import { customPublisher, overviewOf, renderRouterPanel, schemaPath } from './routerFixtures';

useDomTestEnvironment();

const SAMPLE = {
  order: 'A-1',
  amount: 10,
  customer: { email: 'a@example.com' },
  items: [{ sku: 'x' }],
};

/** A custom publisher with one event and this sample, its schema as the engine would keep it. */
async function openEvent(paths: EventConfigView['paths'] = []) {
  const shop = customPublisher('Shop', [
    {
      apiName: 'order_created',
      sample: SAMPLE,
      schemaVersion: paths.length > 0 ? 1 : null,
      paths,
    },
  ]);
  let overview: RouterOverview = overviewOf([shop]);
  const event = () => overview.publishers[0]!.events[0]!;
  /** The engine's new version: the overview's event follows, as after a real write. */
  const saveVersion = (required: readonly string[]): SchemaVersionView => {
    const version = (event().schemaVersion ?? 0) + 1;
    const keys: [string, string][] = [
      ['order', 'string'],
      ['amount', 'integer'],
      ['customer', 'object'],
      ['customer.email', 'string'],
      ['items', 'array'],
    ];
    overview = overviewOf([
      {
        ...shop,
        events: [
          {
            ...event(),
            schemaVersion: version,
            paths: keys.map(([path, type]) => schemaPath(path, type, required.includes(path))),
          },
        ],
      },
    ]);
    return { version, schema: { type: 'object' }, source: 'sample', createdAt: 1 };
  };
  const { engine } = await renderRouterPanel(createElement(PublishersPanel), () => overview, {
    'router.schemaVersions': () => [],
    'router.setSample': ({ required }) => saveVersion(required ?? []),
    'router.editSchemaKeys': ({ require }) => {
      const now = new Set(
        event()
          .paths.filter((p) => p.required)
          .map((p) => p.path),
      );
      for (const choice of require) {
        if (choice.required) now.add(choice.path);
        else now.delete(choice.path);
      }
      return { ...saveVersion([...now]), source: 'edit' };
    },
  });
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'order_created' }));
  const sampleKeys = () => screen.getByRole('group', { name: 'Required keys of the sample' });
  const ticks = () =>
    within(sampleKeys())
      .getAllByRole('checkbox')
      .map((box) => [box.closest('label')!.textContent!.trim(), (box as HTMLInputElement).checked]);
  return { engine, user, sampleKeys, ticks };
}

describe('the required keys of a schema generated from a sample', () => {
  it('lists the sample keys, nested ones too, none ticked; generating sends no key as required', async () => {
    const { engine, user, ticks } = await openEvent();
    expect(ticks()).toEqual([
      ['order', false],
      ['amount', false],
      ['customer', false],
      ['customer.email', false],
      ['items', false],
    ]);
    await user.click(screen.getByRole('button', { name: 'Generate schema from sample' }));
    expect(engine.argsOf('router.setSample')).toMatchObject([{ merge: false, required: [] }]);
    expect(screen.getByRole('status').textContent).toBe(
      'Schema version 1 generated from the sample (no key required).',
    );
  });

  it('sends the ticked keys, follows the sample as it is edited, and shows the choice saved', async () => {
    const { engine, user, sampleKeys, ticks } = await openEvent();
    await user.click(within(sampleKeys()).getByRole('checkbox', { name: 'customer.email' }));
    await user.click(within(sampleKeys()).getByRole('checkbox', { name: 'order' }));
    await user.click(within(sampleKeys()).getByRole('checkbox', { name: 'items' }));
    // A key typed into the sample appears (unticked); one removed goes, and its tick is not sent.
    const textarea = screen.getByLabelText('Sample for order_created');
    await user.clear(textarea);
    await user.click(textarea);
    await user.paste(
      JSON.stringify({ order: 'B', amount: 2, customer: { email: 'e' }, channel: 'web' }),
    );
    expect(ticks()).toEqual([
      ['order', true],
      ['amount', false],
      ['customer', false],
      ['customer.email', true],
      ['channel', false],
    ]);
    await user.click(screen.getByRole('button', { name: 'Generate schema from sample' }));
    expect(engine.argsOf('router.setSample')).toMatchObject([
      { required: ['order', 'customer.email'] },
    ]);
    // The saved schema's keys, with the choice made.
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('checkbox')
        .map((box) => [box.getAttribute('aria-label'), (box as HTMLInputElement).checked]),
    ).toEqual([
      ['order required', true],
      ['amount required', false],
      ['customer required', false],
      ['customer.email required', true],
      ['items required', false],
    ]);
  });

  it("changes a saved key's required-ness afterwards, and the sample's ticks follow", async () => {
    const { engine, user, ticks } = await openEvent([
      schemaPath('order', 'string', true),
      schemaPath('amount', 'integer'),
    ]);
    // The ticks start as the saved schema's choice.
    expect(ticks().slice(0, 2)).toEqual([
      ['order', true],
      ['amount', false],
    ]);
    await user.click(screen.getByRole('checkbox', { name: 'amount required' }));
    await user.click(screen.getByRole('checkbox', { name: 'order required' }));
    expect(engine.argsOf('router.editSchemaKeys')).toMatchObject([
      { require: [{ path: 'amount', required: true }] },
      { require: [{ path: 'order', required: false }] },
    ]);
    await act(async () => undefined);
    expect(screen.getByRole('status').textContent).toBe('order is optional from schema version 3.');
    expect(
      (screen.getByRole('checkbox', { name: 'amount required' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(ticks().slice(0, 2)).toEqual([
      ['order', false],
      ['amount', true],
    ]);
  });
});
