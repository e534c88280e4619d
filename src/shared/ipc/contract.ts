/**
 * The one contract between the engine (main process, or Node in web mode) and the renderer.
 *
 * Every request name, its argument and result schema, and every pushed event is declared here and
 * nowhere else. The main-process dispatcher validates calls against these schemas, the preload and
 * the web bridge are typed from them, and the renderer's client is derived from them. Each area
 * declares its requests and events in src/shared/ipc/areas/<area>.ts (with `request` from
 * contractSpec.ts); this file composes them, so a name is defined exactly once.
 */
import { z } from 'zod';
import { NoArgs, request } from './contractSpec';
import { accountsEvents, accountsRequests } from './areas/accounts';
import { backupsEvents, backupsRequests } from './areas/backups';
import { binRequests } from './areas/bin';
import { bulkEditEvents, bulkEditRequests } from './areas/bulkEdit';
import { configCopyRequests } from './areas/configCopy';
import { configureEvents, configureRequests } from './areas/configure';
import { configureChoiceRequests } from './areas/configureChoices';
import { outboxEvents, outboxRequests } from './areas/outbox';
import { outboxHistoryRequests } from './areas/outboxHistory';
import { overviewRequests } from './areas/overview';
import { recordsEvents, recordsRequests } from './areas/records';
import { recordsExportEvents, recordsExportRequests } from './areas/recordsExport';
import { recordsImportEvents, recordsImportRequests } from './areas/recordsImport';
import { routerEvents, routerRequests } from './areas/router';
import { syncEvents, syncRequests } from './areas/sync';
import { Settings, SettingsPatch } from './settings';

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** `desktop` inside Electron, `web` when the engine runs in Node and serves a browser. */
  mode: z.enum(['desktop', 'web']),
  dataDir: z.string(),
  /** The highest store migration applied to this data directory. */
  schemaVersion: z.number().int().nonnegative(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** A link in mirrored data, and the record (of that portal) whose field holds it. */
export const OpenLinkArgs = z
  .object({
    portalId: z.string().regex(/^\d{1,20}$/),
    recordId: z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'a record id'),
    url: z.string().min(1).max(2_048),
  })
  .strict();

export const requests = {
  'app.info': request(NoArgs, AppInfo, 'Version, mode, data directory and schema version.'),
  'app.openLink': request(
    OpenLinkArgs,
    z.object({ opened: z.literal(true) }),
    "Open a record's URL field value in the system browser (only a URL that record holds).",
  ),
  'settings.get': request(NoArgs, Settings, 'All settings, defaults filled in.'),
  'settings.set': request(SettingsPatch, Settings, 'Change some settings; returns all of them.'),
  ...accountsRequests,
  ...syncRequests,
  ...recordsRequests,
  ...recordsExportRequests,
  ...recordsImportRequests,
  ...routerRequests,
  ...outboxRequests,
  ...outboxHistoryRequests,
  ...backupsRequests,
  ...configureRequests,
  ...configCopyRequests,
  ...configureChoiceRequests,
  ...binRequests,
  ...bulkEditRequests,
  ...overviewRequests,
} as const;

export const events = {
  /** Sent to every window after any change, whichever window or transport made it. */
  'settings.changed': Settings,
  ...accountsEvents,
  ...syncEvents,
  ...recordsEvents,
  ...recordsExportEvents,
  ...recordsImportEvents,
  ...routerEvents,
  ...outboxEvents,
  ...backupsEvents,
  ...configureEvents,
  ...bulkEditEvents,
} as const;

export type RequestName = keyof typeof requests;
export type EventName = keyof typeof events;
export const requestNames = Object.keys(requests) as RequestName[];
export const eventNames = Object.keys(events) as EventName[];

/** What a caller passes (before parsing). */
export type RequestArgs<N extends RequestName> = z.input<(typeof requests)[N]['args']>;
/** What a handler receives (after parsing). */
export type ParsedArgs<N extends RequestName> = z.output<(typeof requests)[N]['args']>;
export type RequestResult<N extends RequestName> = z.output<(typeof requests)[N]['result']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(requests, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

// ---------------------------------------------------------------------------------------------
// What crosses a process boundary: an outcome, never a thrown error (thrown errors lose their
// fields when Electron serialises them).

export type CallErrorCode =
  /** No request of that name exists in the contract. */
  | 'unknown_request'
  /** The argument does not match the request's schema. */
  | 'invalid_argument'
  /** The call came from somewhere other than our own window's main frame. */
  | 'forbidden_sender'
  /** The handler refused or failed; `message` is written for the user. */
  | 'failed';

export interface CallError {
  code: CallErrorCode;
  message: string;
  /** For `invalid_argument`: one line per problem, `path: reason`. */
  issues?: string[];
  /**
   * The argument (its key, e.g. `code`) the refusal is about, when it is about one: a form shows
   * the message beside that control, else beside its submit button.
   */
  field?: string;
}

export type CallOutcome<R> = { ok: true; value: R } | { ok: false; error: CallError };

// ---------------------------------------------------------------------------------------------
// Derived client shapes.

type Namespace<N extends string> = N extends `${infer NS}.${string}` ? NS : never;
type Member<N extends string, NS extends string> = N extends `${NS}.${infer M}` ? M : never;

/** Requests whose argument may be left out are callable with no argument. */
type Call<N extends RequestName, R> =
  undefined extends RequestArgs<N>
    ? (args?: RequestArgs<N>) => Promise<R>
    : (args: RequestArgs<N>) => Promise<R>;

/** One named function of a Bridge: resolves to the call's outcome. */
export type BridgeCall<N extends RequestName> = Call<N, CallOutcome<RequestResult<N>>>;

type Unsubscribe = () => void;
type Subscribe = <E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
) => Unsubscribe;

/**
 * What a transport exposes to the renderer: one named function per request (`bridge.app.info()`),
 * resolving to an outcome, and `on` for pushed events. The preload implements it over IPC and
 * `satisfies` it; the web bridge implements it over HTTP + WebSocket.
 */
export type Bridge = {
  [NS in Namespace<RequestName>]: {
    [N in RequestName as Member<N, NS>]: BridgeCall<N>;
  };
} & { on: Subscribe };

/** What renderer code uses: the same names, resolving to the result or rejecting with a CallFailure. */
export type Api = {
  [NS in Namespace<RequestName>]: {
    [N in RequestName as Member<N, NS>]: Call<N, RequestResult<N>>;
  };
} & { on: Subscribe };

/** The IPC channel names; string literal types so the preload can use them without importing code. */
export type CallChannel = 'portaldesk:call';
export type EventChannel = 'portaldesk:event';
export const CALL_CHANNEL: CallChannel = 'portaldesk:call';
export const EVENT_CHANNEL: EventChannel = 'portaldesk:event';
