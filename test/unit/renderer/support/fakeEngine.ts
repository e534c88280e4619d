/**
 * A stand-in engine for component tests: the renderer's real `createApi` over the main process's
 * real ContractDispatcher (so every argument is checked against the contract exactly as the app
 * does), answered by the test's handlers. Every call is recorded, so a test asserts what the UI
 * asked the engine.
 */
import {
  ContractDispatcher,
  UserFacingError,
  type Handlers,
} from '../../../../src/main/bridge/dispatcher';
import { buildNamedCalls, createApi } from '../../../../src/shared/ipc/api';
import {
  events,
  requests,
  type Api,
  type Bridge,
  type CallOutcome,
  type EventName,
  type EventPayload,
  type ParsedArgs,
  type RequestArgs,
  type RequestName,
  type RequestResult,
} from '../../../../src/shared/ipc/contract';

export type FakeHandlers = {
  [N in RequestName]?: (args: ParsedArgs<N>) => RequestResult<N> | Promise<RequestResult<N>>;
};

export interface FakeCall {
  name: RequestName;
  args: unknown;
}

export interface FakeEngine {
  api: Api;
  calls: FakeCall[];
  /** The arguments of every call of `name`, oldest first. */
  argsOf<N extends RequestName>(name: N): RequestArgs<N>[];
  /**
   * Pushes an event to the UI's listeners as the engine would; the payload must be one the
   * contract allows (checked, as the bridge's receiving side does).
   */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

const trusted = { transport: 'internal', trusted: true, description: 'component test' } as const;

export function fakeEngine(handlers: FakeHandlers): FakeEngine {
  const calls: FakeCall[] = [];
  // Each test handler's answer must be what the real engine could send; what it throws reaches
  // the UI as its message, as a UserFacingError of a real handler does.
  const answering = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      async (args: unknown) => {
        try {
          const answer = await (handler as (args: unknown) => unknown)(args);
          return requests[name as RequestName].result.parse(answer);
        } catch (error) {
          // A refusal naming its field keeps it, as a real handler's does.
          if (error instanceof UserFacingError) throw error;
          throw new UserFacingError(error instanceof Error ? error.message : String(error));
        }
      },
    ]),
  ) as unknown as Handlers;
  const dispatcher = new ContractDispatcher(answering);
  const bridge = buildNamedCalls((name) => async (args): Promise<CallOutcome<unknown>> => {
    calls.push({ name, args });
    // A call the test did not provide for rejects (not an outcome): the caller's error path runs.
    if (!handlers[name]) throw new Error(`The fake engine has no handler for ${name}.`);
    return dispatcher.dispatch(name, args, trusted);
  });
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const on = (event: EventName, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => void set.delete(listener);
  };
  const api = createApi({ ...bridge, on } as unknown as Bridge);
  return {
    api,
    calls,
    emit: (event, payload) => {
      const checked = events[event].parse(payload);
      for (const listener of listeners.get(event) ?? []) listener(checked);
    },
    argsOf: <N extends RequestName>(name: N) =>
      calls.filter((call) => call.name === name).map((call) => call.args as RequestArgs<N>),
  };
}
