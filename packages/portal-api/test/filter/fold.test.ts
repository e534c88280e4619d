import { describe, expect, it } from 'vitest';
import { FOLD_SQL_FUNCTION, foldSqlValue, foldText } from '@portaldesk/portal-api/filter';

describe('foldText', () => {
  it('folds case beyond ASCII', () => {
    expect(foldText('ÄRGER')).toBe('ärger');
    expect(foldText('Straße')).toBe(foldText('STRASSE'));
    expect(foldText('ﬁle')).toBe('file');
    expect(foldText('ΣΊΣΥΦΟΣ')).toBe(foldText('σίσυφος'));
  });

  it('treats composed and decomposed spellings alike', () => {
    expect(foldText('A\u0308rger')).toBe(foldText('Ärger'));
    expect(foldText('A\u0308rger')).toBe('ärger');
  });

  it('uses default (not Turkish) rules for dotted I', () => {
    expect(foldText('İstanbul')).toBe('i\u0307stanbul');
    expect(foldText('ISTANBUL')).toBe('istanbul');
  });

  it('is what the SQL function runs, with NULL for anything but text', () => {
    expect(FOLD_SQL_FUNCTION).toBe('pd_fold');
    expect(foldSqlValue('ÄB')).toBe('äb');
    expect(foldSqlValue(null)).toBeNull();
    expect(foldSqlValue(12)).toBeNull();
    expect(foldSqlValue(Buffer.from('A'))).toBeNull();
  });
});
