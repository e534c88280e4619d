/**
 * What the router's component tests render over: overviews as the engine sends them (the fake
 * engine checks every answer against the contract), and the store and provider around a panel.
 */
import { createElement, type ReactElement } from 'react';
import { act, render } from '@testing-library/react';
import type {
  EventConfigView,
  PublisherView,
  RouterOverview,
  SchemaPathView,
  SuiteScope,
  TargetView,
} from '../../../../src/shared/ipc/areas/router';
import { createRouterStore } from '../../../../src/renderer/src/features/router/routerStore';
import { RouterStoreContext } from '../../../../src/renderer/src/features/router/useRouter';
import { fakeEngine, type FakeHandlers } from '../support/fakeEngine';

export const SCOPES: SuiteScope[] = ['Create', 'Update', 'Delete', 'Approve', 'Reject'];
export const NOW_MS = Date.parse('2024-05-15T12:00:00Z');

/** A request bin target, as the router's overview lists it. */
export const REQUEST_BIN: TargetView = {
  id: '9001',
  name: 'bin',
  kind: 'request_bin',
  status: 'active',
  url: null,
  method: 'POST',
  headers: [],
  query: [],
  rateLimitPerSecond: 300,
  timeoutMs: 10_000,
  fault: null,
};

let nextId = 1000;
const id = () => String((nextId += 1));

export function eventConfig(
  publisherId: string,
  apiName: string,
  more: Partial<EventConfigView> = {},
): EventConfigView {
  return {
    id: id(),
    publisherId,
    apiName,
    scope: null,
    schemaVersion: null,
    sample: null,
    paths: [],
    ...more,
  };
}

/** A portal's suite publisher: five events per module, module by module, as the engine makes them. */
export function suitePublisher(name: string, modules: readonly string[]): PublisherView {
  const publisherId = id();
  return {
    id: publisherId,
    name,
    kind: 'suite',
    service: 'projects',
    status: 'active',
    apiKeyHint: null,
    events: modules.flatMap((module) =>
      SCOPES.map((scope) => eventConfig(publisherId, `${module}_${scope}`, { scope })),
    ),
  };
}

export function customPublisher(
  name: string,
  events: readonly (string | Partial<EventConfigView>)[],
): PublisherView {
  const publisherId = id();
  return {
    id: publisherId,
    name,
    kind: 'custom',
    service: 'custom',
    status: 'active',
    apiKeyHint: 'abcd',
    events: events.map((event) =>
      typeof event === 'string'
        ? eventConfig(publisherId, event)
        : eventConfig(publisherId, event.apiName ?? 'event', event),
    ),
  };
}

export function schemaPath(path: string, jsonType: string, required = false): SchemaPathView {
  const type =
    jsonType === 'string'
      ? 'string'
      : jsonType === 'integer' || jsonType === 'number'
        ? 'number'
        : jsonType === 'boolean'
          ? 'boolean'
          : null;
  return { path, type, jsonType, format: null, required };
}

export function overviewOf(
  publishers: PublisherView[],
  more: Partial<RouterOverview> = {},
): RouterOverview {
  return {
    account: {
      org_id: '1',
      project: { name: 'p', environment: 'test', id: '2' },
      time_zone: 'UTC',
    },
    ingressUrl: null,
    clock: { nowMs: NOW_MS, scale: 1 },
    publishers,
    rules: [],
    targets: [],
    ...more,
  };
}

/**
 * A panel inside a router store over a fake engine that answers `router.overview` with what
 * `overview()` returns at the time (a test changes it to play the engine's changes), an empty
 * event log, and `handlers`; the store has loaded once.
 */
export async function renderRouterPanel(
  panel: ReactElement,
  overview: () => RouterOverview,
  handlers: FakeHandlers = {},
) {
  const engine = fakeEngine({
    'router.overview': () => overview(),
    'router.listEvents': () => ({ total: 0, rows: [] }),
    ...handlers,
  });
  const store = createRouterStore(engine.api);
  await act(() => store.getState().load());
  render(createElement(RouterStoreContext.Provider, { value: store }, panel));
  return { engine, store };
}
