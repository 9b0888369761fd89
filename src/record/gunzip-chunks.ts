import { open } from 'node:fs/promises';
import { constants, createGunzip } from 'node:zlib';
import { recordingBytes } from './reader.ts';

/** The native zlib handle behind node:zlib's streams: `writeSync` inflates into a caller's buffer. */
interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  onerror: (message: string, errno: number) => void;
}

/**
 * A recording file's bytes (gunzipped when it is a `.gz`), `chunkBytes` at a time, into ONE reused
 * buffer: each chunk is valid until the next is asked for (copy what must outlive it).
 *
 * Why not the zlib stream: measured on a 4.6 MB recording (40 MB of text, 384 k events), a
 * `createGunzip()` stream costs 250–350 ms of CPU on a first load (a fresh output buffer per chunk,
 * its page faults and GC, a thread-pool hand-off and stream machinery per chunk) for 50 ms of
 * inflating; driving the same native inflater synchronously into one buffer costs the 50 ms, on
 * this thread, between asynchronous file reads. The handle is node:zlib's own (`_handle.writeSync`,
 * as its sync API uses it); if a Node version lacks it, the stream is used instead. Errors carry
 * zlib's message (`unexpected end of file`, `incorrect header check`, ...), as the stream's did.
 */
export async function* fileChunks(path: string, chunkBytes: number): AsyncGenerator<Buffer, void, undefined> {
  const gz = path.endsWith('.gz');
  const z = gz ? createGunzip() : null;
  const inner = z as unknown as { _handle?: ZlibHandle; _writeState?: Uint32Array } | null;
  const handle = inner?._handle;
  const state = inner?._writeState;
  if (z !== null && (typeof handle?.writeSync !== 'function' || !(state instanceof Uint32Array))) {
    z.close();
    for await (const chunk of recordingBytes(path, chunkBytes)) yield chunk;
    return;
  }
  const file = await open(path, 'r');
  const input = Buffer.allocUnsafe(chunkBytes);
  try {
    if (z === null || handle === undefined || state === undefined) {
      for (;;) {
        const { bytesRead } = await file.read(input, 0, chunkBytes, null);
        if (bytesRead === 0) return;
        yield input.subarray(0, bytesRead);
      }
    }
    let error: string | null = null;
    handle.onerror = (message) => {
      error = message;
    };
    const out = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await file.read(input, 0, chunkBytes, null);
      const flush = bytesRead === 0 ? constants.Z_FINISH : constants.Z_NO_FLUSH;
      let inOff = 0;
      let inLen = bytesRead;
      // As node:zlib does: inflate until the input is used up; a full output buffer means more may follow.
      for (;;) {
        handle.writeSync(flush, input, inOff, inLen, out, 0, chunkBytes);
        if (error !== null) throw new Error(error);
        const availOut = state[0]!;
        const availIn = state[1]!;
        inOff += inLen - availIn;
        inLen = availIn;
        if (availOut < chunkBytes) yield out.subarray(0, chunkBytes - availOut);
        if (availOut !== 0) break;
      }
      if (bytesRead === 0) return;
    }
  } finally {
    await file.close();
    z?.close();
  }
}
