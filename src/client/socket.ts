import WebSocket from 'ws';
import { MAX_VENUE_FRAME_BYTES } from '../wire/index.ts';

/** Callbacks a socket reports to; `httpStatus` is set when the upgrade was refused (401, 403...). */
export interface SocketHandlers {
  onOpen(): void;
  onMessage(text: string): void;
  /** A WebSocket control frame (ping or pong) arrived: the peer is alive even without data frames. */
  onControl?(kind: 'ping' | 'pong'): void;
  onClose(code: number, reason: string): void;
  onError(err: Error, httpStatus?: number): void;
}

/** The few socket operations the clients use; a fake implements it in unit tests. */
export interface SocketLike {
  send(text: string): void;
  /** Graceful close (close frame). */
  close(code?: number, reason?: string): void;
  /** Immediate teardown without a close handshake. */
  terminate(): void;
  /** Sends a WebSocket ping (a healthy peer answers with a pong), when the transport supports it. */
  ping?(): void;
}

/** Opens a socket to `url` with upgrade `headers`, reporting to `handlers`. */
export type SocketFactory = (url: string, headers: Readonly<Record<string, string>>, handlers: SocketHandlers) => SocketLike;

/** The real I/O edge: a `ws` client socket (pings are answered by `ws` itself; pings and pongs are reported for liveness). */
export const wsSocketFactory: SocketFactory = (url, headers, h) => {
  // A frame over the bound closes the socket with 1009 (reported through onError, then onClose)
  // and the client reconnects, instead of buffering up to ws's 100 MiB default.
  const ws = new WebSocket(url, { headers: { ...headers }, perMessageDeflate: false, handshakeTimeout: 30_000, maxPayload: MAX_VENUE_FRAME_BYTES });
  ws.on('open', () => h.onOpen());
  ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    const text = isBinary ? '' : typeof data === 'string' ? data : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    h.onMessage(isBinary ? '\u0000binary' : text);
  });
  ws.on('ping', () => h.onControl?.('ping'));
  ws.on('pong', () => h.onControl?.('pong'));
  ws.on('close', (code: number, reason: Buffer) => h.onClose(code, reason.toString('utf8')));
  ws.on('error', (err: Error & { code?: string }) =>
    h.onError(err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? new Error(`the server sent a frame over ${MAX_VENUE_FRAME_BYTES} bytes: closed with 1009 (message too big)`, { cause: err }) : err),
  );
  ws.on('unexpected-response', (req, res) => {
    h.onError(new Error(`upgrade refused with HTTP ${res.statusCode ?? '?'}`), res.statusCode);
    req.destroy();
    res.resume();
    ws.terminate();
  });
  return {
    send: (text) => ws.send(text),
    close: (code, reason) => ws.close(code, reason),
    terminate: () => ws.terminate(),
    ping: () => {
      if (ws.readyState === WebSocket.OPEN) ws.ping();
    },
  };
};
