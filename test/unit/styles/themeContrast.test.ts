/**
 * The colours of both themes, read from styles.css as the app ships them: the focus ring stands
 * out 3:1 against every background it is drawn on (WCAG 2.1, 1.4.11) and the text colours keep
 * 4.5:1 (1.4.3). axe checks the text on the screens the e2e walk reaches; this checks the pairs
 * in any state, the focus ring included (axe does not judge outlines).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(path.join(process.cwd(), 'src', 'renderer', 'src', 'styles.css'), 'utf8');

/** The custom properties declared in the first block whose selector is exactly `selector`. */
function variables(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  expect(start, `${selector} in styles.css`).toBeGreaterThanOrEqual(0);
  const block = css.slice(start, css.indexOf('}', start));
  return new Map(
    [...block.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((m) => [m[1]!, m[2]!]),
  );
}

const light = variables(':root');
const THEMES = {
  light,
  // The dark theme overrides some of them; the rest are the light ones.
  dark: new Map([...light, ...variables(":root[data-theme='dark']")]),
};

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const BACKGROUNDS = ['--bg', '--surface', '--sidebar', '--accent-soft'];

describe('contrast', () => {
  it('is 21:1 for black on white and 1:1 for a colour on itself (the formula)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#2a64d6', '#2a64d6')).toBe(1);
    // axe's figure for the light theme's accent on its old --accent-soft.
    expect(contrast('#2a64d6', '#dfe8fb')).toBeCloseTo(4.39, 2);
  });

  for (const [theme, vars] of Object.entries(THEMES)) {
    const color = (name: string) => {
      const value = vars.get(name);
      expect(value, `${name} in the ${theme} theme`).toBeDefined();
      return value!;
    };

    it(`${theme}: the focus ring stands out 3:1 against every background`, () => {
      for (const background of BACKGROUNDS) {
        expect(
          contrast(color('--focus'), color(background)),
          `--focus on ${background}`,
        ).toBeGreaterThanOrEqual(3);
      }
    });

    it(`${theme}: text, muted text and accent text keep 4.5:1 where they are drawn`, () => {
      for (const background of BACKGROUNDS) {
        expect(
          contrast(color('--text'), color(background)),
          `--text on ${background}`,
        ).toBeGreaterThanOrEqual(4.5);
        expect(
          contrast(color('--accent'), color(background)),
          `--accent on ${background}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
      for (const background of ['--bg', '--surface', '--sidebar']) {
        expect(
          contrast(color('--muted'), color(background)),
          `--muted on ${background}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrast(color('--on-accent'), color('--accent'))).toBeGreaterThanOrEqual(4.5);
    });

    it(`${theme}: success, warning and danger text keep 4.5:1 on the page, surfaces and their own tint`, () => {
      // A backup's "Ready", "Verified …" and a copy's result are --ok text on the surface.
      for (const status of ['--ok', '--warn', '--danger']) {
        for (const background of ['--bg', '--surface', '--sidebar', `${status}-soft`]) {
          expect(
            contrast(color(status), color(background)),
            `${status} on ${background}`,
          ).toBeGreaterThanOrEqual(4.5);
        }
      }
    });
  }
});
