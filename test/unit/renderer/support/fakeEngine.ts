/**
 * A stand-in engine for component tests: the renderer's real `createApi` over a bridge whose calls
 * are checked against the contract's schemas (as the main process's dispatcher does) and answered
 * by the test's handlers. Every call is recorded, so a test asserts what the UI asked the engine.
 */
import { buildNamedCalls, createApi } from '../../../../src/shared/api';
import {
  requests,
  type Api,
  type Bridge,
  type CallOutcome,
  type ParsedArgs,
  type RequestArgs,
  type RequestName,
  type RequestResult,
} from '../../../../src/shared/contract';

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
}

function issuesOf(error: { issues: { path: PropertyKey[]; message: string }[] }): string[] {
  return error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
}

export function fakeEngine(handlers: FakeHandlers): FakeEngine {
  const calls: FakeCall[] = [];
  const bridge = buildNamedCalls((name) => async (args): Promise<CallOutcome<unknown>> => {
    calls.push({ name, args });
    const handler = handlers[name] as ((args: unknown) => unknown) | undefined;
    // A call the test did not provide for rejects (not an outcome): the caller's error path runs.
    if (!handler) throw new Error(`The fake engine has no handler for ${name}.`);
    const parsed = requests[name].args.safeParse(args);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error);
      return {
        ok: false,
        error: {
          code: 'invalid_argument',
          message: `Invalid argument for ${name}: ${issues.join('; ')}. Nothing was changed.`,
          issues,
        },
      };
    }
    try {
      // The answer must be what the real engine could send.
      return { ok: true, value: requests[name].result.parse(await handler(parsed.data)) };
    } catch (error) {
      return {
        ok: false,
        error: { code: 'failed', message: error instanceof Error ? error.message : String(error) },
      };
    }
  });
  const api = createApi({ ...bridge, on: () => () => undefined } as unknown as Bridge);
  return {
    api,
    calls,
    argsOf: <N extends RequestName>(name: N) =>
      calls.filter((call) => call.name === name).map((call) => call.args as RequestArgs<N>),
  };
}
