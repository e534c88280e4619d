import {
  requestNames,
  type Api,
  type Bridge,
  type CallError,
  type CallOutcome,
  type RequestName,
} from './contract';

/** A refused or failed call, as renderer code sees it. */
export class CallFailure extends Error {
  readonly code: CallError['code'];
  readonly issues: string[];
  readonly request: RequestName;
  /** The argument the refusal is about (CallError.field), or null. */
  readonly field: string | null;

  constructor(request: RequestName, error: CallError) {
    super(error.message);
    this.name = 'CallFailure';
    this.code = error.code;
    this.issues = error.issues ?? [];
    this.request = request;
    this.field = error.field ?? null;
  }
}

type AnyCall = (args?: unknown) => Promise<CallOutcome<unknown>>;

/** Splits `app.info` into `['app', 'info']`; every contract name has exactly one dot. */
export function splitRequestName(name: RequestName): [string, string] {
  const dot = name.indexOf('.');
  return [name.slice(0, dot), name.slice(dot + 1)];
}

/** Looks up `bridge.app.info` for `app.info`. */
export function bridgeFunction(bridge: Bridge, name: RequestName): AnyCall {
  const [ns, member] = splitRequestName(name);
  const group = (bridge as unknown as Record<string, Record<string, AnyCall> | undefined>)[ns];
  const fn = group?.[member];
  if (typeof fn !== 'function') throw new Error(`The bridge has no function for ${name}.`);
  return fn;
}

/** Builds a nested object of named functions, one per contract request. */
export function buildNamedCalls(
  makeCall: (name: RequestName) => (args?: unknown) => Promise<unknown>,
): Record<string, Record<string, (args?: unknown) => Promise<unknown>>> {
  const tree: Record<string, Record<string, (args?: unknown) => Promise<unknown>>> = {};
  for (const name of requestNames) {
    const [ns, member] = splitRequestName(name);
    (tree[ns] ??= {})[member] = makeCall(name);
  }
  return tree;
}

/** Turns a transport's outcome-returning bridge into the API renderer code calls. */
export function createApi(bridge: Bridge): Api {
  const calls = buildNamedCalls((name) => {
    const fn = bridgeFunction(bridge, name);
    return async (args) => {
      const outcome = await fn(args);
      if (outcome.ok) return outcome.value;
      throw new CallFailure(name, outcome.error);
    };
  });
  return { ...calls, on: bridge.on } as unknown as Api;
}
