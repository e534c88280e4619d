/**
 * Webhook addresses whose credential is in the path (Slack's /services/T…/B…/<token>, Discord's
 * /api/webhooks/<id>/<token>, a Teams connector's, any /hooks/<long token>): no credential
 * segment appears in anything the router shows or writes of a delivery (the attempt's address,
 * headers, body, the target's answer, a failure's words, a request bin's entry, the targets
 * list), while the scheme, the host and the leading segments that say what it is stay readable.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  looksLikeToken,
  pathSecrets,
  redactUrl,
} from '../../../src/shared/routerSecrets/redactUrl';
import {
  configuredSecrets,
  recordedSecretForms,
  REDACTED,
  redactRecordedRequest,
  redactRecordedResponse,
  redactValues,
} from '../../../src/main/router/delivery/secretHeaders';
import type { TargetView } from '../../../src/shared/ipc/areas/router';

/**
 * A credential as services make them: random bytes, written in base64url or hex. One known by its
 * look alone (`minLength` 16 or more) is at least 16 bytes in hex, as such tokens are: a shorter
 * hex string may be all digits, which reads as an id.
 */
const token = (minLength: number, maxLength: number) =>
  fc
    .record({
      seed: fc.uint8Array({ minLength: 1, maxLength: 16 }),
      hex: fc.boolean(),
      length: fc.integer({ min: minLength, max: maxLength }),
    })
    .map(({ seed, hex, length }) => {
      if (hex && minLength >= 16) length = Math.max(length, 32);
      let text = '';
      for (let round = 0; text.length < length; round++) {
        const digest = createHash('sha256').update(seed).update(String(round)).digest();
        text += hex ? digest.toString('hex') : digest.toString('base64url');
      }
      return text.slice(0, length);
    });

const upperId = (prefix: string) =>
  fc.stringMatching(/^[A-Z0-9]{8,10}$/).map((id) => `${prefix}${id}`);
const digits = fc.stringMatching(/^[1-9][0-9]{16,18}$/);
const uuid = fc.uuid();

interface Case {
  url: string;
  /** The credential segments, as they are in the address. */
  secrets: string[];
  /** What must stay readable: the address's start up to its first credential. */
  kept: string;
}

const slack = fc
  .record({ team: upperId('T'), channel: upperId('B'), secret: token(8, 40) })
  .map(({ team, channel, secret }): Case => ({
    url: `https://hooks.slack.com/services/${team}/${channel}/${secret}`,
    secrets: [secret],
    kept: `https://hooks.slack.com/services/${team}/${channel}/`,
  }));

const discord = fc
  .record({
    host: fc.constantFrom('discord.com', 'discordapp.com', 'canary.discord.com'),
    version: fc.constantFrom('', 'v10/'),
    id: digits,
    secret: token(8, 68),
    suffix: fc.constantFrom('', '/slack', '/github'),
  })
  .map(({ host, version, id, secret, suffix }): Case => ({
    url: `https://${host}/api/${version}webhooks/${id}/${secret}${suffix}`,
    secrets: [secret],
    kept: `https://${host}/api/${version}webhooks/${id}/`,
  }));

const teams = fc
  .record({
    tenant: fc.stringMatching(/^[a-z]{3,12}$/),
    group: uuid,
    tenantId: uuid,
    hex: token(32, 32),
    owner: uuid,
    signature: fc.option(token(8, 48), { nil: null }),
  })
  .map(({ tenant, group, tenantId, hex, owner, signature }): Case => {
    const base = `https://${tenant}.webhook.office.com/webhookb2/`;
    const tail = signature === null ? '' : `/${signature}`;
    return {
      url: `${base}${group}@${tenantId}/IncomingWebhook/${hex}/${owner}${tail}`,
      secrets: [`${group}@${tenantId}`, hex, owner, ...(signature === null ? [] : [signature])],
      kept: base,
    };
  });

const generic = fc
  .record({
    host: fc.constantFrom('hooks.example.com', 'events.example.org', '127.0.0.1:8080'),
    prefix: fc.array(fc.constantFrom('hooks', 'api', 'v1', 'incoming', 'IncomingWebhook'), {
      maxLength: 3,
    }),
    secret: token(20, 64),
    rest: fc.array(fc.constantFrom('events', 'notify', '12345'), { maxLength: 2 }),
  })
  .map(({ host, prefix, secret, rest }): Case => {
    const start = `https://${host}/${prefix.map((p) => `${p}/`).join('')}`;
    return {
      url: `${start}${secret}${rest.map((r) => `/${r}`).join('')}`,
      secrets: [secret],
      kept: start,
    };
  });

const anyCase = fc.oneof(slack, discord, teams, generic);

describe('a webhook address whose path is its credential', () => {
  it('is shown without its credential segments, the rest as it was, the same when shown again', () => {
    fc.assert(
      fc.property(anyCase, ({ url, secrets, kept }) => {
        const shown = redactUrl(url);
        for (const secret of secrets) expect(shown).not.toContain(secret);
        expect(shown.startsWith(kept)).toBe(true);
        expect(shown).toContain(REDACTED);
        // The segments after the credential that say what the call is stay readable too.
        expect(shown.split('/').length).toBe(url.split('/').length);
        expect(redactUrl(shown)).toBe(shown);
      }),
    );
  });

  it('leaves no credential segment in any text a delivery is recorded, logged or shown with', () => {
    fc.assert(
      fc.property(anyCase, fc.boolean(), ({ url, secrets }, failed) => {
        // The request as sent (the address whole), an echoing target, a failure that quotes it.
        const request = {
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', 'x-destination': url },
          body: JSON.stringify({ events: [{ data: { forward_to: url } }] }),
        };
        const forms = recordedSecretForms(request);
        const attempt = {
          request: redactRecordedRequest(request, forms),
          response: failed
            ? null
            : redactRecordedResponse(
                { status: 404, headers: { location: url }, body: `no hook at ${url}` },
                forms,
              ),
          error: failed ? redactValues(`Could not reach ${url} (${encodeURI(url)}).`, forms) : null,
        };
        // A bin's entry, and a row stored before read with the target's configured secrets.
        const known = configuredSecrets({ url, headers: [], query: [] } as unknown as TargetView);
        const older = redactRecordedRequest(request, recordedSecretForms(request, known));
        const written = JSON.stringify([attempt, older]);
        for (const secret of secrets) {
          expect(written).not.toContain(secret);
          expect(written).not.toContain(encodeURIComponent(secret));
        }
        expect(attempt.request.url).toBe(redactUrl(url));
      }),
    );
  });

  it('names its credentials for replacing wherever else they appear, as written and decoded', () => {
    expect(pathSecrets('https://hooks.slack.com/services/T000/B000/XXXXXXXX')).toEqual([
      'XXXXXXXX',
    ]);
    expect(redactUrl('https://hooks.slack.com/services/T000/B000/XXXXXXXX')).toBe(
      'https://hooks.slack.com/services/T000/B000/[redacted]',
    );
    expect(pathSecrets('https://h.example/hooks/a1B2c3D4e5F6g7H8%2Bz')).toEqual([
      'a1B2c3D4e5F6g7H8%2Bz',
      'a1B2c3D4e5F6g7H8+z',
    ]);
  });

  it('does not take words, numeric ids or short segments for credentials', () => {
    for (const segment of [
      'IncomingWebhook',
      'order-events-2024',
      'notifications_v2_production',
      '1234567890123456789',
      'a1b2c3d4',
      'T0123ABCD',
    ]) {
      expect(looksLikeToken(segment), segment).toBe(false);
    }
    for (const url of [
      'https://api.example.com/v1/orders/12345678901234/events',
      'https://hooks.example.com/incoming/order-events-2024',
      'https://discord.com/api/webhooks',
      'http://127.0.0.1:3000/hook?v=1',
      'sandbox://request_bin/1234567890123456789',
    ]) {
      expect(redactUrl(url), url).toBe(url);
      expect(pathSecrets(url), url).toEqual([]);
    }
  });
});
