import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Clock } from '../../core/clock.ts';
import type { EngineEvent } from '../../engine/index.ts';
import type { OrderGateway } from '../../engine/ports.ts';
import type { RoundTripSample } from '../../record/index.ts';

const OP = { place: 'place', replace: 'replace', cancel: 'cancel', 'cancel-all': 'cancel_all' } as const;

/**
 * The daemon's request round trips, per op, for the recorder's `q` lines: order entry from the
 * engine's `intent-result` events (the same figures as `mmbot_order_round_trip_latency_seconds`),
 * status and open-orders queries timed around the gateway call (the engine emits no event for them).
 */
export class RoundTripTap {
  readonly #out = new Subject<RoundTripSample>();
  /** Every measured round trip. */
  readonly roundTrips$: Observable<RoundTripSample> = this.#out.asObservable();

  constructor(private readonly clock: Clock) {}

  /** Forwards the engine's order-entry round trips. */
  watch(events$: Observable<EngineEvent>): Subscription {
    return events$.subscribe((e) => {
      if (e.type !== 'intent-result' || e.unknown) return; // an unknown outcome (timeout) is no round trip
      this.#out.next({ op: OP[e.kind], symbol: e.symbol, ms: e.latencyMs, ok: e.ok, tsMs: e.tsMs });
    });
  }

  /** Wraps a gateway so its status and open-orders queries are timed. */
  wrap(gateway: OrderGateway): OrderGateway {
    const timed = <T>(op: 'status' | 'open_orders', run: () => Promise<T>): Promise<T> => {
      const t0 = this.clock.nowMs();
      const done = (ok: boolean): void => {
        const t1 = this.clock.nowMs();
        this.#out.next({ op, symbol: null, ms: t1 - t0, ok, tsMs: t1 });
      };
      return run().then(
        (v) => {
          done(true);
          return v;
        },
        (e: unknown) => {
          done(false);
          throw e;
        },
      );
    };
    return {
      place: (i) => gateway.place(i),
      replace: (i) => gateway.replace(i),
      cancel: (i) => gateway.cancel(i),
      cancelAll: (s) => gateway.cancelAll(s),
      status: (ref) => timed('status', () => gateway.status(ref)),
      openOrders: () => timed('open_orders', () => gateway.openOrders()),
    };
  }
}
