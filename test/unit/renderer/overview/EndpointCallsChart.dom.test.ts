// @vitest-environment happy-dom
/**
 * The Sync view's chart of one endpoint: a bar per point, drawn over the limit in the danger
 * colour, the limit's line, and the whole chart named in one sentence for screen readers.
 */
import { createElement } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EndpointCallsChart } from '../../../../src/renderer/src/features/sync/EndpointCallsChart';
import type { EndpointBudget } from '../../../../src/shared/ipc/areas/sync';
import { useDomTestEnvironment } from '../support/dom';

useDomTestEnvironment();

const BUDGET: EndpointBudget = {
  key: 'us GET /api/v3/portals',
  limit: 200,
  windowMs: 120_000,
  spent: 150,
  remaining: 50,
  nextSlotAt: null,
  blockedUntil: null,
  queued: 0,
  inFlight: 0,
  calls: {
    stepMs: 10_000,
    inWindow: [...Array<number>(11).fill(0), 201, ...Array<number>(11).fill(100), 150],
    current: 150,
    previous: 60,
  },
};

describe('EndpointCallsChart', () => {
  it('draws a bar per point, the ones over the limit marked, and says it in words', () => {
    const { container } = render(
      createElement(EndpointCallsChart, { budget: BUDGET, label: 'GET /api/v3/portals' }),
    );
    const bars = container.querySelectorAll('.calls-chart__bar');
    expect(bars).toHaveLength(24);
    expect(container.querySelectorAll('.calls-chart__bar.is-over')).toHaveLength(1);
    expect(Number(bars[23]!.getAttribute('height'))).toBeGreaterThan(
      Number(bars[12]!.getAttribute('height')),
    );
    expect(container.querySelector('.calls-chart__limit')).not.toBeNull();
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'GET /api/v3/portals: 150 of 200 calls in the current 2 min window, 60 in the previous one; the most in any 2 min window shown: 201.',
    );
    expect(screen.getByText(/Previous window 60 · current 150 of/)).toBeTruthy();
  });
});
