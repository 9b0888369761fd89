import { Subscription } from 'rxjs';
import { asClientOrderId, type Symbol } from '../../src/core/ids.ts';
import type { Engine, EngineDeps } from '../../src/engine/index.ts';

/** A scripted engine: one resting post-only GTC order sent on the first book it sees. */
export function oneRestingOrder(symbol: Symbol, side: 'buy' | 'sell', priceTicks: number, qty: number) {
  return (deps: EngineDeps): Engine => {
    const subs = new Subscription();
    let sent = false;
    return {
      start(inputs) {
        subs.add(
          inputs.market$.subscribe((ev) => {
            if (sent || ev.type !== 'book') return;
            sent = true;
            void deps.gateway.place({ kind: 'place', symbol, side, priceTicks, qty, tif: 'GTC', postOnly: true, reprice: 'rej', selfTrade: 'CancelIncoming', clientOrderId: asClientOrderId(1), tag: null });
          }),
        );
      },
      async stop() {
        subs.unsubscribe();
        return { cancelRequested: 0, confirmed: true, remaining: [], durationMs: 0 };
      },
      snapshot: () => ({ counters: { fills: 0, intentsSent: { place: 1, replace: 0, cancel: 0, 'cancel-all': 0 }, rejects: {}, killSwitchTrips: 0, killSwitchEpisodes: [], rejectsByReason: {}, strategyErrors: 0 } }) as never,
      events$: new Subscription() as never,
      setTradingState: () => undefined,
      tripKillSwitch: () => undefined,
      resetKillSwitch: () => undefined,
    };
  };
}
