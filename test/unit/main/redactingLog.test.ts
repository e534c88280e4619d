import { describe, expect, it } from 'vitest';
import { redactingLog } from '../../../src/main/redactingLog';

describe('redactingLog', () => {
  it('removes tokens and codes from warnings and from errors and their stacks', () => {
    const lines: string[] = [];
    const log = redactingLog({
      warn: (message) => lines.push(message),
      error: (message, error) => lines.push(`${message} | ${String(error)}`),
    });
    log.warn('GET https://api.example/x?code=1000.abc&state=s failed');
    log.error(
      'refresh failed',
      new Error('POST /oauth/v2/token?refresh_token=1000.secret&client_secret=shh: 500'),
    );
    expect(lines.join('\n')).not.toMatch(/1000\.abc|1000\.secret|shh/);
    expect(lines[0]).toContain('state=s');
    expect(lines[1]).toMatch(
      /refresh failed \| Error: POST \/oauth\/v2\/token\?refresh_token=\[redacted\]/,
    );
  });
});
