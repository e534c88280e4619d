import { describe, expect, it } from 'vitest';
import { replaceCspMeta } from '../../../src/main/bridge/replaceCspMeta';

describe('replaceCspMeta', () => {
  it("replaces only the CSP meta tag's content, leaving the rest of the page as it was", () => {
    const page =
      '<head><meta charset="UTF-8" /><meta http-equiv="Content-Security-Policy" content="default-src \'none\'" /><meta name="x" content="y" /></head>';
    expect(replaceCspMeta(page, "connect-src 'self' ws://127.0.0.1:5000")).toBe(
      '<head><meta charset="UTF-8" /><meta http-equiv="Content-Security-Policy" content="connect-src \'self\' ws://127.0.0.1:5000" /><meta name="x" content="y" /></head>',
    );
  });

  it('returns a page without the tag unchanged, and takes $ in a policy literally', () => {
    expect(replaceCspMeta('<title>x</title>', 'a')).toBe('<title>x</title>');
    expect(
      replaceCspMeta('<meta http-equiv="Content-Security-Policy" content="old">', 'a $& $1 b'),
    ).toBe('<meta http-equiv="Content-Security-Policy" content="a $& $1 b">');
  });
});
