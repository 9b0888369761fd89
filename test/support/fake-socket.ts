/** Test helper: an in-memory SocketFactory whose sockets the test opens, feeds and drops by hand. */
import type { SocketFactory, SocketHandlers, SocketLike } from '../../src/client/socket.ts';

/** One fake socket: what the client sent, and controls to play the venue. */
export interface FakeSocket extends SocketLike {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly sent: string[];
  closed: boolean;
  /** Completes the upgrade. */
  open(): void;
  /** Delivers a frame to the client. */
  receive(text: string): void;
  /** Delivers a WebSocket control frame (ping or pong) to the client. */
  control(kind: 'ping' | 'pong'): void;
  /** Pings the client sent. */
  pingsSent: number;
  /** When true, every ping the client sends is answered with a pong on the next microtask. */
  answerPings: boolean;
  /** Simulates the venue dropping the connection. */
  drop(code?: number): void;
  /** Simulates an upgrade refused with `status`. */
  refuse(status: number): void;
}

/** A factory recording every socket it creates; `autoOpen` opens them on the next microtask. */
export function fakeSocketFactory(opts: { autoOpen?: boolean; onSend?: (s: FakeSocket, text: string) => void } = {}): {
  factory: SocketFactory;
  sockets: FakeSocket[];
  last(): FakeSocket;
} {
  const sockets: FakeSocket[] = [];
  const factory: SocketFactory = (url, headers, h: SocketHandlers) => {
    const s: FakeSocket = {
      url,
      headers,
      sent: [],
      closed: false,
      send(text) {
        if (s.closed) throw new Error('send on closed fake socket');
        s.sent.push(text);
        opts.onSend?.(s, text);
      },
      close(code = 1000, reason = '') {
        if (s.closed) return;
        s.closed = true;
        queueMicrotask(() => h.onClose(code, reason));
      },
      terminate() {
        if (s.closed) return;
        s.closed = true;
        queueMicrotask(() => h.onClose(1006, ''));
      },
      open: () => h.onOpen(),
      receive: (text) => h.onMessage(text),
      control: (kind) => h.onControl?.(kind),
      pingsSent: 0,
      answerPings: false,
      ping() {
        if (s.closed) return;
        s.pingsSent++;
        if (s.answerPings) queueMicrotask(() => !s.closed && h.onControl?.('pong'));
      },
      drop(code = 1006) {
        if (s.closed) return;
        s.closed = true;
        h.onClose(code, '');
      },
      refuse(status) {
        s.closed = true;
        h.onError(new Error(`upgrade refused with HTTP ${status}`), status);
      },
    };
    sockets.push(s);
    if (opts.autoOpen) queueMicrotask(() => !s.closed && s.open());
    return s;
  };
  return {
    factory,
    sockets,
    last: () => {
      const s = sockets[sockets.length - 1];
      if (!s) throw new Error('no socket created yet');
      return s;
    },
  };
}
