import { describe, expect, it } from 'vitest';
import { VirtualClock, type Clock } from '../../src/core/clock.ts';
import { ReconnectingSocket, type DownInfo } from '../../src/client/reconnecting-socket.ts';
import { fakeSocketFactory } from '../support/fake-socket.ts';
import { flush } from '../support/drive-clock.ts';

/**
 * A clock whose time jumps like a process that was descheduled: `runDue` then fires every timer
 * that fell due during the jump at once, the way Node runs its timers phase after a stall, before
 * it reads the sockets.
 */
class StallingClock implements Clock {
  now = 0;
  #timers: { atMs: number; fn: () => void; live: boolean }[] = [];
  nowMs(): number {
    return this.now;
  }
  nowNs(): bigint {
    return BigInt(this.now) * 1_000_000n;
  }
  setTimer(delayMs: number, fn: () => void): () => void {
    const t = { atMs: this.now + delayMs, fn, live: true };
    this.#timers.push(t);
    return () => void (t.live = false);
  }
  /** One timers phase: what is due now (timers they add wait for the next phase). */
  runDue(): void {
    const due = this.#timers.filter((t) => t.live && t.atMs <= this.now);
    this.#timers = this.#timers.filter((t) => !due.includes(t));
    for (const t of due) if (t.live) t.fn();
  }
}

function setup<C extends Clock = VirtualClock>(idleTimeoutMs = 0, clock: C = new VirtualClock(0) as Clock as C) {
  const fake = fakeSocketFactory();
  const frames: string[] = [];
  const downs: DownInfo[] = [];
  let opens = 0;
  let n = 0;
  const rs = new ReconnectingSocket({
    name: 't',
    clock,
    factory: fake.factory,
    prepare: async () => ({ url: 'ws://x/orders/ws', headers: { authorization: `Bearer t${++n}` } }),
    backoff: { initialMs: 100, maxMs: 400, multiplier: 2, jitter: 0 },
    random: () => 0.5,
    connectTimeoutMs: 1_000,
    idleTimeoutMs,
    onOpen: () => opens++,
    onFrame: (t) => frames.push(t),
    onDown: (d) => downs.push(d),
  });
  return { clock, fake, rs, frames, downs, opens: () => opens };
}

describe('ReconnectingSocket', () => {
  it('connects with fresh headers, delivers frames and sends only while open', async () => {
    const { rs, fake, frames } = setup();
    expect(rs.send('x')).toBe(false);
    rs.start();
    await flush();
    expect(rs.phase).toBe('connecting');
    expect(rs.send('x')).toBe(false);
    fake.last().open();
    expect(rs.phase).toBe('open');
    expect(fake.last().headers['authorization']).toBe('Bearer t1');
    fake.last().receive('hello');
    expect(frames).toEqual(['hello']);
    expect(rs.send('ping')).toBe(true);
    expect(fake.last().sent).toEqual(['ping']);
    await rs.stop();
  });

  it('reconnects after a drop with exponential backoff, reset only after a stable session', async () => {
    const { rs, fake, clock, downs } = setup();
    rs.start();
    await flush();
    fake.last().open();
    clock.advanceBy(1_000);
    fake.last().drop();
    expect(downs[0]).toMatchObject({ wasOpen: true });
    expect(rs.phase).toBe('backoff');
    clock.advanceBy(99);
    await flush();
    expect(fake.sockets.length).toBe(1);
    clock.advanceBy(1);
    await flush();
    expect(fake.sockets.length).toBe(2);
    expect(fake.last().headers['authorization']).toBe('Bearer t2');
    // failed attempts grow the delay: 200, then 400 (cap)
    fake.last().refuse(503);
    expect(downs[1]).toMatchObject({ wasOpen: false, httpStatus: 503 });
    clock.advanceBy(200);
    await flush();
    expect(fake.sockets.length).toBe(3);
    fake.last().drop();
    clock.advanceBy(399);
    await flush();
    expect(fake.sockets.length).toBe(3);
    clock.advanceBy(1);
    await flush();
    // accepted then dropped at once: not stable, the backoff keeps growing (capped at 400)
    fake.last().open();
    fake.last().drop();
    clock.advanceBy(399);
    await flush();
    expect(fake.sockets.length).toBe(4);
    clock.advanceBy(1);
    await flush();
    fake.last().open();
    clock.advanceBy(1_000);
    fake.last().drop();
    clock.advanceBy(100);
    await flush();
    expect(fake.sockets.length).toBe(6);
    await rs.stop();
  });

  it('times out a hanging upgrade and retries', async () => {
    const { rs, fake, clock, downs } = setup();
    rs.start();
    await flush();
    clock.advanceBy(1_000);
    expect(downs[0]!.reason).toContain('connect timeout');
    expect(fake.sockets[0]!.closed).toBe(true);
    clock.advanceBy(100);
    await flush();
    expect(fake.sockets.length).toBe(2);
    await rs.stop();
  });

  it('declares a silent session dead after idleTimeoutMs and replaces it', async () => {
    const { rs, fake, clock, downs } = setup(1_000);
    rs.start();
    await flush();
    fake.last().open();
    clock.advanceBy(800);
    fake.last().receive('h');
    clock.advanceBy(800);
    expect(downs.length).toBe(0);
    clock.advanceBy(300);
    expect(downs.length).toBe(1);
    expect(downs[0]!.reason).toContain('no frame');
    await rs.stop();
  });

  it('counts pings and pongs as liveness: a quiet but healthy peer is kept, a silent one replaced', async () => {
    const { rs, fake, clock, downs } = setup(1_000);
    rs.start();
    await flush();
    const s = fake.last();
    s.open();
    // The venue only pings (no data frames) for 10 s: the session stays.
    for (let t = 0; t < 10_000; t += 400) {
      clock.advanceBy(400);
      s.control('ping');
    }
    expect(downs).toEqual([]);
    expect(rs.pings).toBe(25);
    // Nothing at all now, but the peer answers our probe pings with pongs: still kept.
    s.answerPings = true;
    for (let t = 0; t < 10_000; t += 100) {
      clock.advanceBy(100);
      await flush();
    }
    expect(downs).toEqual([]);
    expect(s.pingsSent).toBeGreaterThan(0);
    expect(rs.pongs).toBe(s.pingsSent);
    // A peer that stops answering is declared dead within the idle timeout.
    s.answerPings = false;
    for (let t = 0; t < 2_000; t += 100) {
      clock.advanceBy(100);
      await flush();
    }
    expect(downs.length).toBe(1);
    expect(downs[0]!.reason).toContain('no frame, ping or pong');
    await rs.stop();
  });

  it('after an event-loop stall, reads the frames that arrived during it before judging the session idle', async () => {
    const clock = new StallingClock();
    const { rs, fake, downs } = setup(1_000, clock);
    rs.start();
    await flush();
    const s = fake.last();
    s.open();
    // The process is descheduled for 1.5 s; the venue's frame of t=700 waits in the socket buffer.
    clock.now = 1_500;
    clock.runDue(); // the timers phase: the idle check sees 1.5 s of silence
    s.receive('h'); // the I/O phase reads the buffered frame
    clock.now = 1_501;
    clock.runDue();
    expect(downs).toEqual([]);
    // A session that is really silent is still replaced, one turn after the check saw it.
    clock.now = 2_600;
    clock.runDue();
    clock.now = 2_601;
    clock.runDue();
    expect(downs.map((d) => d.reason)).toEqual([expect.stringContaining('no frame')]);
    await rs.stop();
  });

  it('ignores callbacks from a replaced socket and stops cleanly', async () => {
    const { rs, fake, clock, frames } = setup();
    rs.start();
    await flush();
    const first = fake.last();
    first.open();
    rs.reconnect('test');
    await flush();
    first.receive('stale');
    expect(frames).toEqual([]);
    clock.advanceBy(100);
    await flush();
    fake.last().open();
    const stopping = rs.stop();
    await flush();
    await stopping;
    expect(rs.phase).toBe('stopped');
    expect(clock.pendingTimers()).toBe(0);
    expect(fake.last().closed).toBe(true);
  });
});
