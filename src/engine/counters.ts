import type { EngineEvent, IntentKind } from './events.ts';
import type { EngineCounters, KillSwitchEpisode } from './types.ts';

/** The most kill-switch episodes and distinct reject reasons kept: enough for any report, bounded for a long daemon. */
const MAX_EPISODES = 256;
const MAX_REJECT_REASONS = 256;

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
  /** Each trip of the kill switch with when and why, and when it cleared (null while still tripped). */
  readonly killSwitchEpisodes: KillSwitchEpisode[] = [];
  /** Rejects by `source: reason` (expected races excluded), so a report can say what was refused and why. */
  readonly rejectReasons = new Map<string, number>();

  /** Counts one event. */
  count(ev: EngineEvent): void {
    switch (ev.type) {
      case 'intent-sent':
        this.intentsSent[ev.kind]++;
        break;
      case 'intent-result':
        if (!ev.ok) this.intentsFailed++;
        break;
      case 'reject': {
        this.rejects[ev.source]++;
        if (ev.benign === true) break;
        const key = `${ev.source}: ${ev.reason}`;
        if (this.rejectReasons.has(key) || this.rejectReasons.size < MAX_REJECT_REASONS) this.rejectReasons.set(key, (this.rejectReasons.get(key) ?? 0) + 1);
        break;
      }
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
        if (this.killSwitchEpisodes.length < MAX_EPISODES) this.killSwitchEpisodes.push({ trippedAtMs: ev.tsMs, reason: ev.reason, detail: ev.detail, action: ev.action, clearedAtMs: null, clearedBy: null });
        break;
      case 'kill-switch-cleared': {
        const open = this.killSwitchEpisodes.at(-1);
        if (open !== undefined && open.clearedAtMs === null) this.killSwitchEpisodes[this.killSwitchEpisodes.length - 1] = { ...open, clearedAtMs: ev.tsMs, clearedBy: ev.reason };
        break;
      }
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
      killSwitchEpisodes: [...this.killSwitchEpisodes],
      rejectsByReason: Object.fromEntries(this.rejectReasons),
    };
  }
}
