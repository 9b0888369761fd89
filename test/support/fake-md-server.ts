/**
 * A tiny market-data server speaking docs/venue-protocol.md §4 exactly (replies `result`/`error`, frames with
 * `t` first), for MD client tests when no full venue feed is needed. Test-only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** One connected client and what it subscribed. */
export interface FakeMdSession {
  readonly ws: WebSocket;
  readonly books: Map<string, string>;
  readonly candles: Set<string>;
  readonly received: Record<string, unknown>[];
}

/** The running fake server. */
export interface FakeMdServer {
  readonly port: number;
  readonly wsUrl: string;
  readonly sessions: Set<FakeMdSession>;
  /** When false, subscribes are acknowledged but no snapshot follows (to exercise deadlines). */
  snapshotOnSubscribe: boolean;
  /** Book snapshot frame text for `symbol` (defaults to a 2-level book). */
  snapshotFor: (symbol: string) => string;
  /** Sends `text` to every session subscribed to `symbol` (or to all when undefined). */
  publish(text: string, symbol?: string): void;
  /** Terminates every connection. */
  dropAll(): void;
  close(): Promise<void>;
}

const KNOWN = new Set(['EURUSD-PERP', 'GBPUSD-PERP']);

/** A default L2 snapshot frame (`st: true`). */
export function l2Snapshot(symbol: string, bidPx = '1.1380', askPx = '1.1390', qty = 100, tsNs = 0): string {
  return `{"t":"2","ts":${Math.floor(tsNs / 1e9)},"tn":${tsNs % 1e9},"s":"${symbol}","b":[{"p":"${bidPx}","q":${qty}}],"a":[{"p":"${askPx}","q":${qty}}],"st":true}`;
}

/** Starts the fake server on 127.0.0.1 (port 0 unless given). */
export async function startFakeMdServer(port = 0): Promise<FakeMdServer> {
  const http: Server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const sessions = new Set<FakeMdSession>();
  http.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] !== '/md/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const s: FakeMdSession = { ws, books: new Map(), candles: new Set(), received: [] };
      sessions.add(s);
      ws.on('close', () => sessions.delete(s));
      ws.on('message', (d: WebSocket.RawData) => {
        const m = JSON.parse(d.toString()) as { rid: number; type: string; symbol: string; level?: string; width?: string };
        s.received.push(m);
        if (!KNOWN.has(m.symbol)) {
          ws.send(JSON.stringify({ rid: m.rid, error: { message: `Symbol ${m.symbol} is not available`, code: 404 } }));
          return;
        }
        switch (m.type) {
          case 'subscribe':
            s.books.set(m.symbol, m.level ?? 'LEVEL_2');
            ws.send(JSON.stringify({ rid: m.rid, result: { subscribed: m.symbol } }));
            if (server.snapshotOnSubscribe) ws.send(server.snapshotFor(m.symbol));
            return;
          case 'unsubscribe':
            s.books.delete(m.symbol);
            ws.send(JSON.stringify({ rid: m.rid, result: { unsubscribed: m.symbol } }));
            return;
          case 'subscribe_candles':
            s.candles.add(`${m.symbol}:${m.width}`);
            ws.send(JSON.stringify({ rid: m.rid, result: { subscribed_candle: `${m.symbol}:${m.width}` } }));
            return;
          default:
            ws.send(JSON.stringify({ rid: m.rid, result: {} }));
        }
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const actual = (http.address() as AddressInfo).port;
  const server: FakeMdServer = {
    port: actual,
    wsUrl: `ws://127.0.0.1:${actual}`,
    sessions,
    snapshotOnSubscribe: true,
    snapshotFor: (symbol) => l2Snapshot(symbol),
    publish(text, symbol) {
      for (const s of sessions) if (symbol === undefined || s.books.has(symbol)) s.ws.send(text);
    },
    dropAll() {
      for (const s of sessions) s.ws.terminate();
    },
    async close() {
      for (const s of sessions) s.ws.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  return server;
}
