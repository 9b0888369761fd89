import { describe, expect, it } from 'vitest';
import { enableStageStamps, Stage, STAGE_POINTS, stageStampsOn, stageStampsTaken, stamp, stampFrame, stampWritten } from '../../src/core/stage-stamps.ts';

/** Stamps every point of one cycle in order, from the frame to the write. */
function fullCycle(): void {
  stampFrame();
  for (let s = Stage.decoded; s < Stage.written; s++) stamp(s);
  stampWritten();
}

describe('stage stamps', () => {
  it('keeps nothing while off', () => {
    expect(stageStampsOn()).toBe(false);
    fullCycle();
    expect(stageStampsTaken()).toEqual([]);
  });

  it('keeps a complete cycle once, in hot-path order, and only the first write of a frame', () => {
    enableStageStamps();
    fullCycle();
    // A second send caused by the same frame: the cycle already ended.
    stamp(Stage.request);
    stamp(Stage.encoded);
    stampWritten();
    const taken = stageStampsTaken();
    expect(taken).toHaveLength(1);
    expect(taken[0]).toHaveLength(STAGE_POINTS.length);
    for (let i = 1; i < STAGE_POINTS.length; i++) expect(taken[0]![i]!).toBeGreaterThanOrEqual(taken[0]![i - 1]!);
  });

  it('drops a cycle with a stage missing (a send no book frame led to through the strategy)', () => {
    enableStageStamps();
    stampFrame();
    stamp(Stage.decoded);
    stamp(Stage.request);
    stamp(Stage.encoded);
    stampWritten();
    fullCycle();
    expect(stageStampsTaken()).toHaveLength(1);
  });
});
