import http from 'node:http';
import type { TargetRequest } from './buildTargetRequest';
import { MAX_RECORDED_RESPONSE_CHARS, type TargetAnswer } from './targetAnswer';
import { makeUndiciCaller } from './callWebhookUndici';
import { WebhookConnections } from './webhookConnections';
import { webhookRequestBytes } from './webhookRequestBytes';

export { MAX_RECORDED_RESPONSE_CHARS, type TargetAnswer } from './targetAnswer';

/** Connections kept open per target origin; more concurrent calls wait for a free one. */
const SOCKETS_PER_ORIGIN = 64;
/** An unused connection is closed after this (sooner when the target's Keep-Alive says so). */
const IDLE_CONNECTION_MS = 15_000;

const connections = new WebhookConnections({
  maxSocketsPerOrigin: SOCKETS_PER_ORIGIN,
  idleMs: IDLE_CONNECTION_MS,
  // node:http's own limit on a response's headers, as before this client.
  maxHeadBytes: http.maxHeaderSize,
  maxBodyBytes: MAX_RECORDED_RESPONSE_CHARS,
});

/**
 * One webhook call; the target's timeout is real time (it bounds a network wait). Our own client
 * unless `PORTALDESK_WEBHOOK_CLIENT=undici` asks for undici's Pool, for bench:router's side-by-side
 * measurement (bench/README.md).
 */
export const callWebhook =
  process.env.PORTALDESK_WEBHOOK_CLIENT === 'undici'
    ? makeUndiciCaller({
        socketsPerOrigin: SOCKETS_PER_ORIGIN,
        idleMs: IDLE_CONNECTION_MS,
        maxBodyBytes: MAX_RECORDED_RESPONSE_CHARS,
        pipelining: Number(process.env.PORTALDESK_WEBHOOK_PIPELINING ?? 1),
      })
    : callOwnClient;

function callOwnClient(request: TargetRequest, timeoutMs: number): Promise<TargetAnswer> {
  return new Promise((resolve) => {
    let prepared: ReturnType<typeof webhookRequestBytes>;
    try {
      prepared = webhookRequestBytes(request);
    } catch (error) {
      resolve({
        response: null,
        error: `The request was not sent: ${error instanceof Error ? error.message : String(error)}.`,
      });
      return;
    }
    connections.send(
      prepared.origin,
      prepared.bytes,
      { timeoutMs, headRequest: request.method === 'HEAD' },
      (result) => {
        if (result.response === null) {
          resolve({ response: null, error: result.error });
          return;
        }
        resolve({
          response: {
            status: result.response.status,
            headers: result.response.headers,
            // The parser kept at most MAX_RECORDED_RESPONSE_CHARS bytes: no more characters.
            body: result.response.body.toString('utf8'),
          },
          error: null,
        });
      },
    );
  });
}
