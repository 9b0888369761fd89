import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_STATES, canTransition, isOpenState, isTerminal, type OrderState } from '../../src/domain/order-state.ts';

describe('order state machine', () => {
  it('matches the venue table (docs/venue-rules.md §8)', () => {
    expect(canTransition('PENDING', 'ACCEPTED')).toBe(true);
    expect(canTransition('PENDING', 'FILLED')).toBe(false);
    expect(canTransition('ACCEPTED', 'REJECTED')).toBe(false);
    expect(canTransition('ACCEPTED', 'FILLED')).toBe(true);
    expect(canTransition('PARTIALLY_FILLED', 'PARTIALLY_FILLED')).toBe(true);
    expect(canTransition('ACCEPTED', 'ACCEPTED')).toBe(false);
  });

  const known = ORDER_STATES.filter((s) => s !== 'UNKNOWN');

  it('never leaves a terminal state, and every walk ends terminal or open', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...known), { maxLength: 20 }), (steps) => {
        let state: OrderState = 'PENDING';
        for (const next of steps) {
          if (isTerminal(state)) expect(canTransition(state, next)).toBe(false);
          if (canTransition(state, next)) state = next;
        }
        return isTerminal(state) || isOpenState(state) || state === 'PENDING';
      }),
    );
  });
});
