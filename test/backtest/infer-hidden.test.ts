import { describe, expect, it } from 'vitest';
import { inferredCondition } from '../../src/backtest/infer-hidden.ts';
import { probQueue, riskAverseQueue, type QueueModel } from '../../src/backtest/queue-model.ts';
import { resolveQueueModel } from '../../src/backtest/queue-model-module.ts';
import { backtestSectionSchema } from '../../src/backtest/settings.ts';
import { toSettings } from '../../src/backtest/settings.ts';
import { TRADE_CODE } from '../../src/record/format.ts';
import { exchangeHarness } from './harness.ts';

/** queue_model.infer_hidden: an unmarked print where no displayed volume stood traded hidden liquidity. */
const inferring = (m: QueueModel = riskAverseQueue): QueueModel => ({ ...m, inferHidden: true });

describe('infer_hidden: prints on a tape without hidden marks', () => {
  it('alone at a new best ask inside the spread, a plain print at our price fills nothing (was 50)', async () => {
    for (const [model, want] of [[riskAverseQueue, 50], [inferring(), 0]] as const) {
      const h = exchangeHarness(model);
      h.book([[998, 100]], [[1004, 100]], true);
      await h.place('sell', 1002, 100); // the book shows nothing at 1002: whatever printed there was hidden
      h.trade(1002, 50, true);
      expect(h.filledQty()).toBe(want);
    }
  });

  it('a plain print worse than our price still fills us: the aggressor met our order first', async () => {
    const h = exchangeHarness(inferring());
    h.book([[998, 100]], [[1004, 100]], true);
    await h.place('sell', 1002, 100);
    h.trade(1003, 30, true); // also hidden (nothing displayed at 1003), but priced worse than ours
    expect(h.filledQty()).toBe(30);
  });

  it('a print at a displayed level stays a regular execution: it advances the queue and fills the excess', async () => {
    const h = exchangeHarness(inferring());
    h.book([[998, 100]], [[1002, 40]], true);
    await h.place('sell', 1002, 100); // behind 40
    h.trade(1002, 100, true);
    expect(h.filledQty()).toBe(60);
  });

  it('a print whose level a frame at the same instant had just emptied traded that displayed volume', async () => {
    const h = exchangeHarness(inferring());
    h.book([[998, 100]], [[1002, 40]], true);
    await h.place('sell', 1002, 100); // behind 40
    h.book([], [[1002, 0]]); // the frame showing the 40 gone comes before its print (separate streams)
    h.trade(1002, 60, true); // 40 of it is what the frame showed gone, 20 reached us
    expect(h.filledQty()).toBe(20);
    h.ex.now += 1;
    h.trade(1002, 30, true); // a later print with nothing displayed there: hidden
    expect(h.filledQty()).toBe(20);
  });

  it("a print where only the recording bot's own order stood was its fill, a displayed execution: it fills our order there", async () => {
    const h = exchangeHarness(inferring());
    h.book([[998, 100]], [[1004, 100]], true);
    h.ex.applyOwn(0, new Float64Array([1002, 30]), 0, 0, 1); // the live bot's ask, alone at 1002
    h.book([], [[1002, 30]]);
    await h.place('sell', 1002, 100); // nothing of others ahead
    h.trade(1002, 30, true);
    expect(h.filledQty()).toBe(30); // read as hidden (others showed nothing there): 0
  });

  it('works with the probabilistic models too, and leaves marked prints as they are', async () => {
    const h = exchangeHarness(inferring(probQueue('power', 2)));
    h.book([[998, 100]], [[1004, 100]], true);
    await h.place('buy', 1000, 100);
    h.trade(1000, 70, false);
    expect(h.filledQty()).toBe(0);
    h.ex.applyTrade(0, 999, 40, false, TRADE_CODE.hidden); // marked hidden, priced worse: fills us
    expect(h.filledQty()).toBe(40);
  });

  it('is not applied to an order-level replay (its prints are marked by the source)', async () => {
    const h = exchangeHarness(inferring(), { entry: 0, response: 0 }, { l3: true });
    h.book3([[998, [100]]], [[1004, [100]]], true);
    await h.place('sell', 1002, 100);
    h.trade(1002, 50, true);
    expect(h.filledQty()).toBe(50);
  });

  it('inferredCondition: only a regular print with nothing displayed, within the recorded depth, becomes hidden', () => {
    expect(inferredCondition(TRADE_CODE.regular, 0, false, false)).toBe(TRADE_CODE.hidden);
    expect(inferredCondition(TRADE_CODE.regular, 5, false, false)).toBe(TRADE_CODE.regular);
    expect(inferredCondition(TRADE_CODE.regular, 0, true, false)).toBe(TRADE_CODE.regular); // beyond the depth: unknown
    expect(inferredCondition(TRADE_CODE.regular, 0, false, true)).toBe(TRADE_CODE.regular);
    expect(inferredCondition(TRADE_CODE.cross, 0, false, false)).toBe(TRADE_CODE.cross);
  });

  it('is read from backtest.queue_model.infer_hidden and named in reports', async () => {
    const s = toSettings(backtestSectionSchema.parse({ queue_model: { kind: 'log2', infer_hidden: true } }));
    const m = await resolveQueueModel(s.queueModel);
    expect([m.name, m.inferHidden]).toEqual(['log2+infer-hidden', true]);
    expect((await resolveQueueModel(toSettings(backtestSectionSchema.parse({})).queueModel)).inferHidden).toBeUndefined();
    const bad = backtestSectionSchema.safeParse({ queue_model: { infer_hidden: 'yes' } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['queue_model', 'infer_hidden']);
  });
});
