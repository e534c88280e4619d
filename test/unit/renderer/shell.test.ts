import { describe, expect, it } from 'vitest';
import { secretFromFragment } from '../../../src/renderer/src/bridge/secret';
import { sectionByShortcut, SECTIONS } from '../../../src/renderer/src/app/sections';
import { resolveTheme } from '../../../src/renderer/src/app/theme';

describe('renderer shell decisions', () => {
  it('reads the launch secret from the fragment and nothing else', () => {
    const secret = 'a'.repeat(64);
    expect(secretFromFragment(`#secret=${secret}`)).toBe(secret);
    expect(secretFromFragment(`#other=1&secret=${secret}`)).toBe(secret);
    expect(secretFromFragment('#secret=<script>')).toBeUndefined();
    expect(secretFromFragment('')).toBeUndefined();
  });

  it('follows the OS theme only when the setting says so', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('maps Ctrl/Cmd+1…8 to the sections in sidebar order', () => {
    expect(SECTIONS.map((section) => section.id)).toEqual([
      'records',
      'outbox',
      'sync',
      'backups',
      'configure',
      'router',
      'overview',
      'settings',
    ]);
    expect(sectionByShortcut('1')).toBe('records');
    expect(sectionByShortcut('5')).toBe('configure');
    expect(sectionByShortcut('7')).toBe('overview');
    expect(sectionByShortcut('8')).toBe('settings');
    expect(sectionByShortcut('9')).toBeUndefined();
    expect(sectionByShortcut('0')).toBeUndefined();
    expect(sectionByShortcut('x')).toBeUndefined();
  });
});
