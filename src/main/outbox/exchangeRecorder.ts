/**
 * The answers one operation's run got from the service (every call a send made with `ctx.call`
 * reports to it through the client's `onAnswer`), and which of them the history keeps: the last
 * change request, or the last read when nothing had to be sent (a lost answer already applied).
 */
import type { AnsweredCall } from '../api/client/apiClient';

/** The exchange the history shows for a delivery, and how many change requests the run sent. */
export interface DeliveryExchange {
  method: string;
  /** Path and query, without the service's address. */
  path: string;
  requestBody: string | null;
  status: number;
  text: string;
  requests: number;
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

export class ExchangeRecorder {
  private readonly answers: AnsweredCall[] = [];

  /** For CallOptions.onAnswer: never throws (the client would take a throw for a lost send). */
  readonly observe = (answer: AnsweredCall): void => {
    this.answers.push(answer);
  };

  /** The exchange to keep; null when the run got no answer at all. Pure over what was observed. */
  delivery(): DeliveryExchange | null {
    return chooseExchange(this.answers);
  }
}

/** The last change request (not GET) with its answer, else the last read; null for none. */
export function chooseExchange(answers: readonly AnsweredCall[]): DeliveryExchange | null {
  const changes = answers.filter((a) => a.method !== 'GET');
  const shown = changes.at(-1) ?? answers.at(-1);
  if (!shown) return null;
  return {
    method: shown.method,
    path: pathOf(shown.url),
    requestBody: shown.requestBody,
    status: shown.status,
    text: shown.text,
    requests: changes.length,
  };
}
