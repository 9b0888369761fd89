import type { EngineEvent, IntentKind } from './events.ts';
import type { EngineCounters } from './types.ts';

/** Monotonic counters, bumped from the one place every engine event passes through. */
export class Counters {
  readonly intentsSent: Record<IntentKind, number> = { place: 0, replace: 0, cancel: 0, 'cancel-all': 0 };
  intentsFailed = 0;
  readonly rejects = { venue: 0, risk: 0, gateway: 0 };
  throttled = 0;
  coalesced = 0;
  dropped = 0;
  backoffs = 0;
  fills = 0;
  strategyErrors = 0;
  killSwitchTrips = 0;
  reconciliations = 0;
  marketEvents = 0;
  orderEvents = 0;
  strategyEvaluations = 0;
  hedges = 0;

  /** Counts one event. */
  count(ev: EngineEvent): void {
    switch (ev.type) {
      case 'intent-sent':
        this.intentsSent[ev.kind]++;
        break;
      case 'intent-result':
        if (!ev.ok) this.intentsFailed++;
        break;
      case 'reject':
        this.rejects[ev.source]++;
        break;
      case 'throttled':
        this.throttled++;
        break;
      case 'coalesced':
        this.coalesced++;
        break;
      case 'dropped':
        this.dropped++;
        break;
      case 'backoff':
        this.backoffs++;
        break;
      case 'fill':
        this.fills++;
        break;
      case 'strategy-error':
        this.strategyErrors++;
        break;
      case 'kill-switch-tripped':
        this.killSwitchTrips++;
        break;
      case 'reconciled':
        this.reconciliations++;
        break;
      case 'hedge':
        if (ev.sent) this.hedges++;
        break;
      default:
        break;
    }
  }

  /** A frozen copy. */
  snapshot(): EngineCounters {
    return {
      intentsSent: { ...this.intentsSent },
      intentsFailed: this.intentsFailed,
      rejects: { ...this.rejects },
      throttled: this.throttled,
      coalesced: this.coalesced,
      dropped: this.dropped,
      backoffs: this.backoffs,
      fills: this.fills,
      strategyErrors: this.strategyErrors,
      killSwitchTrips: this.killSwitchTrips,
      reconciliations: this.reconciliations,
      marketEvents: this.marketEvents,
      orderEvents: this.orderEvents,
      strategyEvaluations: this.strategyEvaluations,
      hedges: this.hedges,
    };
  }
}
