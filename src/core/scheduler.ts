import { asyncScheduler, Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import type { Clock } from './clock.ts';

/**
 * An RxJS scheduler driven by an injected Clock, so `timer`, `interval`, `debounceTime` and friends
 * run on the virtual clock in tests and backtests, and on the wall clock live.
 */
export function clockScheduler(clock: Clock): SchedulerLike {
  return {
    now: () => clock.nowMs(),
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      const subscription = new Subscription();
      let cancel: (() => void) | undefined;
      const action = {
        schedule(nextState?: T, nextDelay = 0): Subscription {
          arm(nextState, nextDelay);
          return subscription;
        },
        unsubscribe: () => subscription.unsubscribe(),
        closed: false,
      } as unknown as SchedulerAction<T>;
      // One callback for the action's whole life (a periodic `interval` re-arms on every tick).
      let armedState: T | undefined;
      const fire = (): void => {
        cancel = undefined;
        if (!subscription.closed) work.call(action, armedState);
      };
      const arm = (s: T | undefined, d: number): void => {
        cancel?.();
        armedState = s;
        cancel = clock.setTimer(d, fire);
      };
      subscription.add(() => cancel?.());
      arm(state, delay);
      return subscription;
    },
  };
}

/** The wall-clock scheduler, for the composition root only. */
export const liveScheduler: SchedulerLike = asyncScheduler;
