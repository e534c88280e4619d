import type { z } from 'zod';
import { issuesInWords } from '../../shared/ipc/issuesInWords';
import {
  isRequestName,
  requests,
  type CallOutcome,
  type ParsedArgs,
  type RequestName,
  type RequestResult,
} from '../../shared/ipc/contract';

/** Who is calling, as established by the transport before the call reaches the dispatcher. */
export interface CallOrigin {
  transport: 'ipc' | 'web' | 'internal';
  /** False when the transport could not prove the call comes from our own window's main frame. */
  trusted: boolean;
  /** For logs and error messages, e.g. `window 1, frame https://evil.example`. */
  description: string;
}

export type Handler<N extends RequestName> = (
  args: ParsedArgs<N>,
) => RequestResult<N> | Promise<RequestResult<N>>;

export type Handlers = { [N in RequestName]: Handler<N> };

/** Thrown by a handler to refuse a call with a message meant for the user. */
export class UserFacingError extends Error {
  override name = 'UserFacingError';
  /**
   * The argument the refusal is about (its key in the request, e.g. `code`), so a form shows it
   * beside that control; undefined when it is about the request as a whole.
   */
  readonly field: string | undefined;

  constructor(message: string, options: { field?: string } = {}) {
    super(message);
    this.field = options.field;
  }
}

export interface DispatcherLog {
  warn(message: string): void;
  error(message: string, error: unknown): void;
}

/**
 * Ours: complaints listed in a refusal, and complaints read to find the five said in words. An
 * argument of a million wrong items is a million complaints; putting each in words and sending
 * them all back held the engine for seconds and answered with megabytes.
 */
export const MAX_ISSUES_TOLD = 20;
const MAX_ISSUES_READ = 100;

function describeIssues(error: z.ZodError): string[] {
  const told = error.issues.slice(0, MAX_ISSUES_TOLD).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(argument)';
    return `${path}: ${issue.message.slice(0, 500)}`;
  });
  const more = error.issues.length - told.length;
  return more > 0 ? [...told, `(and ${more} more)`] : told;
}

/** The argument key the first complaint is about, when the complaint is about one. */
function fieldOf(error: z.ZodError): { field?: string } {
  const first = error.issues[0]?.path[0];
  return typeof first === 'string' ? { field: first } : {};
}

/**
 * The single gate every call passes, whatever the transport: the sender must be trusted, the name
 * must be in the contract and the argument must match its schema, all before any handler runs.
 */
export class ContractDispatcher {
  constructor(
    private readonly handlers: Handlers,
    private readonly log: DispatcherLog = console,
  ) {}

  async dispatch(
    name: unknown,
    rawArgs: unknown,
    origin: CallOrigin,
  ): Promise<CallOutcome<unknown>> {
    const label = typeof name === 'string' ? name.slice(0, 100) : String(name);
    if (!origin.trusted) {
      this.log.warn(`Refused ${label} from an untrusted sender (${origin.description}).`);
      return {
        ok: false,
        error: {
          code: 'forbidden_sender',
          message: `Refused ${label}: the call did not come from PortalDesk's own window (${origin.description}).`,
        },
      };
    }
    if (!isRequestName(name)) {
      return {
        ok: false,
        error: {
          code: 'unknown_request',
          message: `PortalDesk has no request named "${label}".`,
        },
      };
    }
    let parsed: ReturnType<(typeof requests)[typeof name]['args']['safeParse']>;
    try {
      parsed = requests[name].args.safeParse(rawArgs);
    } catch (error) {
      // The schema walk itself failed: in practice a recursive shape (a rule filter) nested so
      // deeply that checking it exhausts the stack. Still the gate's answer, never a throw.
      const detail = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: {
          code: 'invalid_argument',
          message: `Invalid argument for ${name}: it could not be checked (${detail}); it is probably nested far too deeply. Nothing was changed.`,
          issues: [`(argument): could not be checked (${detail})`],
        },
      };
    }
    if (!parsed.success) {
      const issues = describeIssues(parsed.error);
      // The person reads words; the issues keep the schema's own terms for logs and tests.
      const words = issuesInWords(parsed.error, rawArgs, MAX_ISSUES_READ).slice(0, 5).join(' ');
      return {
        ok: false,
        error: {
          code: 'invalid_argument',
          message: `${words} Nothing was changed.`,
          issues,
          ...fieldOf(parsed.error),
        },
      };
    }
    const handler = this.handlers[name] as (args: unknown) => unknown;
    try {
      return { ok: true, value: await handler(parsed.data) };
    } catch (error) {
      if (error instanceof UserFacingError) {
        return {
          ok: false,
          error: {
            code: 'failed',
            message: error.message,
            ...(error.field !== undefined ? { field: error.field } : {}),
          },
        };
      }
      this.log.error(`Handler for ${name} failed`, error);
      const detail = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: { code: 'failed', message: `${name} failed unexpectedly: ${detail}` },
      };
    }
  }
}
