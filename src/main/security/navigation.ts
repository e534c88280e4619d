import { isAppUrl } from './appOrigin';

/**
 * May the window navigate to `url`? Only within our own renderer. Everything else (file:, links
 * to the web, javascript:, data:) is refused; links to the web go through the external opener.
 */
export function isAllowedNavigation(url: string, devServerUrl?: string): boolean {
  return isAppUrl(url, devServerUrl);
}
