import type { Clock } from '../core/clock.ts';
import { MmError } from '../core/errors.ts';
import type { OrderEvent } from '../domain/events.ts';
import { resolveFeeRates, statedFeeRates, type ResolvedFeeRates } from '../domain/fee-rates.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import type { ActionQueue } from './action-queue.ts';
import { LatencyModel, recordedLatency } from './latency-model.ts';
import { feeSchedule } from './ledger.ts';
import { resolveQueueModel } from './queue-model-module.ts';
import { ReplayExchange } from './replay-exchange.ts';
import type { BacktestSettings } from './settings.ts';

/** The replay venue of one run: the exchange and what it was built from (for the run's report). */
export interface ReplayVenue {
  readonly exchange: ReplayExchange;
  readonly latency: LatencyModel;
  /** Fee rates per symbol index and where they came from. */
  readonly fees: readonly ResolvedFeeRates[];
  /** Recorded round trips replayed (0: the configured latency distributions). */
  readonly roundTrips: number;
  readonly recorded: boolean;
}

/**
 * The replay's second stage (prepare the exchange): order latency (the recording's round trips or
 * the configured distributions), fee rates (config, else the recording header's, else the venue
 * default), the queue model (exact FIFO on order-level data unless an L2 model is asked for), the
 * competitor reaction, and the exchange on them.
 * @throws MmError CONFIG_INVALID when recorded latency or l3-fifo is asked of data without it.
 */
export async function replayVenue(col: ColumnarRecording, settings: BacktestSettings, clock: Clock, actions: ActionQueue, onOrderEvent: (ev: OrderEvent) => void, onSettled: () => void): Promise<ReplayVenue> {
  const ol = settings.orderLatency;
  const recorded = ol.source === 'recorded' || ol.source === 'auto' ? recordedLatency(col.session, ol.entryShare ?? 0.5) : null;
  if (ol.source === 'recorded' && !recorded)
    throw new MmError('CONFIG_INVALID', 'backtest.order_latency.source is recorded but the recording holds no round trips (q lines: record with the daemon, recording: section)');
  const latency = new LatencyModel(ol, settings.seed, recorded);
  const roundTrips = recorded ? [...recorded.byOp.values()].reduce((a, l) => a + l.length, 0) : 0;
  // One source of fee rates (domain/fee-rates.ts): explicit config, else the recording header's for the symbol, else the venue default.
  const fees = col.instruments.map((i) => resolveFeeRates(settings.fees, statedFeeRates(col.headers.find((h) => h.fees?.[i.symbol])?.fees?.[i.symbol]), 'recording'));
  // Order-level recordings replay exact FIFO queues (l3-fifo.ts) unless an L2 model is asked for.
  const qm = settings.queueModel;
  const orderLevel = col.orderStart !== undefined && col.orderQty !== undefined;
  if (qm.kind === 'l3-fifo' && !orderLevel)
    throw new MmError('CONFIG_INVALID', 'backtest.queue_model.kind l3-fifo needs an order-level recording (mmbot record --level 3, mmbot import lobster); this one is L2', { path: 'backtest.queue_model.kind', value: qm.kind });
  const fifo = orderLevel && (qm.kind === 'auto' || qm.kind === 'l3-fifo');
  const queue = await resolveQueueModel(qm);
  const exchange = new ReplayExchange({
    instruments: col.instruments,
    minTick: col.minTick,
    maxTick: col.maxTick,
    clock,
    actions,
    latency,
    queue,
    ...(fifo && col.orderStart && col.orderQty ? { l3: { orderStart: col.orderStart, orderQty: col.orderQty, ...(col.orderId ? { orderId: col.orderId } : {}) } } : {}),
    fees: fees.map((f) => feeSchedule(f.maker, f.taker)),
    rateLimit: settings.rateLimit,
    reaction: settings.reaction ?? null,
    seed: settings.seed,
    // An order-level recording with order ids is one message stream (LOBSTER: the execution comes
    // before its book row), so no frame shows a print early; a window would only take an execution
    // soon after a cancel ahead for the cancel's volume. Same instant only there.
    nettingWindowMs: fifo && col.orderId ? 0 : settings.nettingWindowMs,
    onOrderEvent,
    onSettled,
  });
  return { exchange, latency, fees, roundTrips, recorded: recorded !== null };
}
