/**
 * Moves a recording in time: every timestamp it holds (venue and receive times, the header's start,
 * a funding settlement's instant, a ticker's last settlement, a funding estimate's computation time) by the same offset, nothing
 * else. The same day shifted by 24 h is a second day that follows it, so a replay of several
 * "days" can be made from one (the memory bench concatenates three).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { createGzip } from 'node:zlib';
import type { RecordedEvent, RecordingHeader } from './format.ts';
import { encodeEvent } from './line-codec.ts';
import { openRecording } from './reader.ts';

/** `ev` with every timestamp moved by `deltaMs` (epoch ms); prices, sizes and order lists untouched. */
export function shiftEvent(ev: RecordedEvent, deltaMs: number): RecordedEvent {
  const tsEvent = ev.tsEvent + deltaMs;
  const tsRecv = ev.tsRecv + deltaMs;
  if (ev.type === 'funding') return { ...ev, tsEvent, tsRecv, settlement: { ...ev.settlement, tsEvent: ev.settlement.tsEvent + deltaMs } };
  if (ev.type !== 'ticker') return { ...ev, tsEvent, tsRecv };
  return {
    ...ev,
    tsEvent,
    tsRecv,
    lastSettlementMs: ev.lastSettlementMs === null ? null : ev.lastSettlementMs + deltaMs,
    funding: ev.funding === null ? null : { ...ev.funding, computedMs: ev.funding.computedMs + deltaMs },
  };
}

/** The header with its start moved by `deltaMs`. */
export function shiftHeader(header: RecordingHeader, deltaMs: number): RecordingHeader {
  return { ...header, started_at: header.started_at + deltaMs };
}

/**
 * Writes `inPath` moved by `deltaMs` to `outPath` (gzip JSONL), line for line: each event is
 * re-encoded as it was read (snapshots stay snapshots, deltas deltas), so a replay of the copy sees
 * the same market at other times. Streams: memory does not grow with the file.
 * @returns the number of events written.
 * @throws MmError FILE_NOT_FOUND or RECORDING_INVALID from the reader.
 */
export async function shiftRecording(inPath: string, outPath: string, deltaMs: number): Promise<number> {
  const rec = await openRecording(inPath);
  const gzip = createGzip();
  const file = createWriteStream(outPath);
  gzip.pipe(file);
  const write = async (text: string): Promise<void> => {
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  let n = 0;
  await write(`${JSON.stringify(shiftHeader(rec.header, deltaMs))}\n`);
  for await (const batch of rec.eventBatches()) {
    let text = '';
    for (const { event } of batch) text += `${encodeEvent(shiftEvent(event, deltaMs))}\n`;
    n += batch.length;
    await write(text);
  }
  gzip.end();
  await once(file, 'close');
  return n;
}
