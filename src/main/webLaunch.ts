/**
 * How web mode's address reaches the browser: it carries the launch secret, so through a private
 * page in the data directory, never on a command line (openThroughPage.ts).
 */
import { openThroughPage, type OpenedThroughPage } from './openThroughPage';

/** In the data directory, which is its owner's alone; one web mode runs per data directory. */
export const LAUNCH_PAGE_FILE = 'web-launch.html';

/** Opens web mode's address (it carries the launch secret) in the OS browser, through the page. */
export function openWebAddress(
  url: string,
  options: { dir: string; open?: (target: string) => Promise<boolean> },
): Promise<OpenedThroughPage> {
  return openThroughPage(url, { ...options, file: LAUNCH_PAGE_FILE });
}
