/**
 * A sweep worker thread: decodes the recordings once, then runs the jobs it is sent and replies
 * with one ranked-table row each. Started by `runSweep` through a bootstrap that registers tsx.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadColumnar } from '../record/columnar.ts';
import { buildReport } from './report.ts';
import { executeRunSpec } from './run-spec.ts';
import { sweepRow, type SweepJob, type WorkerReply } from './sweep.ts';

const { dataPaths, baseDir, cacheDir } = workerData as { dataPaths: string[]; baseDir: string; cacheDir: string | null };
const data = loadColumnar(dataPaths, cacheDir === null ? {} : { cacheDir });
data.catch(() => undefined); // reported per job
const port = parentPort!;

port.on('message', (job: SweepJob) => {
  void (async () => {
    let reply: WorkerReply;
    try {
      const run = await executeRunSpec(job.spec, await data, baseDir);
      reply = { index: job.index, row: sweepRow(job.index, job.point, buildReport(run)) };
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      reply = { index: job.index, row: { index: job.index, point: job.point, net: 0, netWithRewards: 0, sharpe: 0, maxDrawdown: 0, fills: 0, makerShare: 0, uptimeTwoSided: 0, insideRewardSpread: 0, markout60sBps: NaN, error: msg } };
    }
    port.postMessage(reply);
  })();
});
