/**
 * A records workspace for the handler tests: a real engine on a fresh data directory whose mirror
 * holds one portal with an `assets` module (a field of each kind, statuses, options, a layout with
 * sections) and a second, empty module; calls go through the contract's dispatcher, as the
 * renderer's do.
 */
import type {
  CallOutcome,
  RequestArgs,
  RequestName,
  RequestResult,
} from '../../../src/shared/ipc/contract';
import type { EngineOptions } from '../../../src/main/engine';
import type { MirrorRecord } from '../../../src/main/store/mirror/mirrorTypes';
import { testEngine } from '../../support/engine';
import { FIELDS, makeRecord, STATUSES, TAGS, USERS } from '../store/mirror/fixture';

export const PORTAL = '7000000001';
export const MODULE = '7000000002';
export const EMPTY_MODULE = '7000000003';
export const LAYOUT = '7000000004';

export function record(i: number, patch: Partial<MirrorRecord> = {}): MirrorRecord {
  return { ...makeRecord(i), portalId: PORTAL, moduleId: MODULE, layoutId: LAYOUT, ...patch };
}

/** `options`: the engine's test hooks (the import's clock and bound, …). */
export function recordsWorkspace(options: Partial<EngineOptions> = {}) {
  const engine = testEngine(options);
  const { mirror } = engine;
  mirror.metadata.upsertPortals([
    {
      id: PORTAL,
      accountId: 'acc-1',
      dc: 'us',
      name: 'northwind',
      orgName: 'Northwind Traders',
      timeZone: 'Asia/Kolkata',
      weekStartDay: 1,
      isDefault: true,
      details: {},
    },
  ]);
  mirror.metadata.upsertUsers(PORTAL, USERS);
  const module = (id: string, apiName: string, plural: string) => ({
    id,
    apiName,
    singularName: plural.slice(0, -1),
    pluralName: plural,
    iconClass: null,
    isActive: true,
    isDefault: false,
    createdTime: null,
    details: {},
  });
  mirror.metadata.replaceModules(PORTAL, [
    module(MODULE, 'assets', 'Assets'),
    module(EMPTY_MODULE, 'vendors', 'Vendors'),
  ]);
  mirror.metadata.replaceFields(PORTAL, MODULE, [
    ...FIELDS,
    {
      ...FIELDS[0]!,
      id: 'f20',
      apiName: 'owner',
      displayName: 'Record owner',
      fieldType: 'user_pick_list',
    },
  ]);
  mirror.metadata.replaceStatuses(PORTAL, MODULE, STATUSES);
  mirror.metadata.replaceFieldOptions(
    PORTAL,
    'f5',
    Object.entries(TAGS).map(([valueId, value], position) => ({
      kind: 'custom_option' as const,
      valueId,
      value,
      layoutId: null,
      position,
    })),
  );
  mirror.metadata.replaceLayouts(PORTAL, MODULE, [
    {
      id: LAYOUT,
      name: 'Standard',
      type: 'public',
      isDefault: true,
      referenceId: null,
      createdTime: null,
    },
  ]);
  mirror.metadata.replaceSections(PORTAL, LAYOUT, [
    {
      id: 's1',
      name: 'Overview',
      position: 1,
      fields: [
        { fieldId: 'f1', position: 1 },
        { fieldId: 'f2', position: 2 },
        { fieldId: 'f4', position: 3 },
      ],
    },
    {
      id: 's2',
      name: 'Money',
      position: 2,
      fields: [
        { fieldId: 'f11', position: 2 },
        { fieldId: 'f5', position: 1 },
      ],
    },
  ]);

  const call = async <N extends RequestName>(
    name: N,
    args?: RequestArgs<N>,
  ): Promise<CallOutcome<RequestResult<N>>> =>
    (await engine.dispatcher.dispatch(name, args, {
      transport: 'internal',
      trusted: true,
      description: 'test',
    })) as CallOutcome<RequestResult<N>>;

  /** The result of a call that must succeed. */
  const ok = async <N extends RequestName>(name: N, args?: RequestArgs<N>) => {
    const outcome = await call(name, args);
    if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error.message}`);
    return outcome.value;
  };

  /** The message of a call that must fail. */
  const refused = async <N extends RequestName>(name: N, args?: RequestArgs<N>) => {
    const outcome = await call(name, args);
    if (outcome.ok) throw new Error(`${name} succeeded but should have been refused.`);
    return outcome.error;
  };

  return { engine, mirror, call, ok, refused };
}
