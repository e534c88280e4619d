// @vitest-environment happy-dom
/**
 * The applied filter's line above the table (what a saved filter shows once opened) names
 * statuses, people and options as the builder does, never by their ids.
 */
import { createElement } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppliedFilter } from '../../../../src/renderer/src/features/records/AppliedFilter';
import { useDomTestEnvironment } from '../support/dom';
import { openWorkspace } from '../support/recordsWorkspace';

useDomTestEnvironment();

describe('the applied filter', () => {
  it('says statuses and people by name', async () => {
    const ws = await openWorkspace();
    render(ws.wrap(createElement(AppliedFilter)));
    const filter = JSON.stringify({
      criteria: [
        { field_name: 'status', criteria_condition: 'is', value: ['2001', '2003'] },
        { field_name: 'owner', criteria_condition: 'is', value: ['5001'] },
      ],
      pattern: '1 AND 2',
    });
    await act(async () => ws.store.setState({ filter }));
    const line = screen.getByTestId('applied-filter').textContent ?? '';
    expect(line).toContain('Open');
    expect(line).toContain('Approved');
    expect(line).toContain('Maya Raman');
    expect(line).not.toMatch(/2001|2003|5001/);
  });
});
