import { readPath } from '../filter/readPath';

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/**
 * Fills `{{path.in.data}}` placeholders of a header or query value from the event's data. A
 * missing key becomes an empty string; objects and arrays become their JSON text.
 */
export function renderTemplate(template: string, data: unknown): string {
  return template.replace(PLACEHOLDER, (_match, path: string) => {
    const value = readPath(data, path);
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}
