/**
 * One axe run per theme over the page (or one part of it), keeping only what blocks: WCAG 2.0/2.1
 * A and AA violations of `serious` or `critical` impact, each with its elements, so one failing
 * run lists everything there is to fix.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);
export const THEMES = ['light', 'dark'] as const;

export interface Finding {
  view: string;
  theme: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Audits `page` in the light and the dark theme (the theme setting follows the system, so
 * `emulateMedia` switches it); `scope`, a CSS selector, limits the run to the part that changed
 * (an open dialog whose page was audited before), which keeps a walk of many states quick.
 */
export async function audit(page: Page, view: string, scope?: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
    if (scope !== undefined) builder.include(scope);
    const results = await builder.analyze();
    for (const violation of results.violations) {
      if (!BLOCKING_IMPACTS.has(violation.impact ?? '')) continue;
      findings.push({
        view,
        theme,
        rule: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        targets: violation.nodes.map((node) => `${node.target.join(' ')} — ${node.failureSummary}`),
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return findings;
}
