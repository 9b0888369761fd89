import type { KillSwitchInputs } from '../risk/kill-switch.ts';
import type { Accounting } from './accounting.ts';
import type { ConnectionState } from './ports.ts';
import type { SymbolSlot } from './symbol-slot.ts';

/**
 * Reads what the kill switch checks (market-data age, the oldest stream outage, total PnL) into one
 * reused object, walking the slots as an array: the check runs on every clock tick (a replayed day
 * has ~94k) and after every fill, so it allocates nothing.
 */
export class KillSwitchInputsReader {
  readonly #x: { -readonly [K in keyof KillSwitchInputs]: KillSwitchInputs[K] } = { nowMs: 0, totalPnlUsd: 0, maxMarketDataAgeMs: null, disconnectedSinceMs: null };

  constructor(
    private readonly slots: readonly SymbolSlot[],
    private readonly downSince: ReadonlyMap<ConnectionState['stream'], number>,
    private readonly startMs: number,
    private readonly accounting: Accounting,
  ) {}

  /** The inputs at `nowMs` (the same object every call: read it before the next). */
  read(nowMs: number): KillSwitchInputs {
    let maxAge: number | null = null;
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      if (s.failed !== null) continue;
      const age = nowMs - (s.market.lastEventMs ?? this.startMs);
      if (maxAge === null || age > maxAge) maxAge = age;
    }
    let down: number | null = null;
    if (this.downSince.size > 0) for (const t of this.downSince.values()) if (down === null || t < down) down = t;
    const x = this.#x;
    x.nowMs = nowMs;
    x.totalPnlUsd = this.accounting.totalPnlUsd();
    x.maxMarketDataAgeMs = maxAge;
    x.disconnectedSinceMs = down;
    return x;
  }
}
