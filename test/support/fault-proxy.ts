/**
 * A loopback proxy between a client and a venue for fault-injection tests. HTTP requests are
 * forwarded (or answered with injected faults such as 429/503); WebSocket upgrades are proxied
 * frame by frame so a test can drop connections, refuse reconnects, delay frames, inject malformed
 * frames and withhold acks; forwarded REST answers can have their bodies replaced. Frames a venue
 * could send (a ghost fill, a crossed book...) are built by `venue-faults.ts`. Test-only: it owns
 * real timers.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** A canned HTTP answer the proxy returns instead of forwarding. */
export interface CannedResponse {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** Rewrites a forwarded REST answer's body (the venue's status and headers are kept, its length fixed). */
export type BodyRewrite = (body: string, status: number) => string;

/** Predicate over a frame: its text and the WS path (`/orders/ws`, `/md/ws`). */
export type FramePredicate = (text: string, path: string) => boolean;

interface HttpFault {
  readonly match: (method: string, path: string) => boolean;
  readonly response: CannedResponse;
  remaining: number;
}

interface HttpRewrite {
  readonly match: (method: string, path: string) => boolean;
  readonly rewrite: BodyRewrite;
  remaining: number;
}

interface Pair {
  readonly path: string;
  readonly client: WebSocket;
  readonly upstream: WebSocket;
}

/** The running proxy and its fault knobs. */
export interface FaultProxy {
  readonly port: number;
  readonly baseUrl: string;
  readonly wsUrl: string;
  /** Points the proxy at another upstream (e.g. a venue restarted on a new port). */
  setUpstream(baseUrl: string): void;
  /** Kills every proxied WebSocket and idle HTTP connection now (both sides see a drop). */
  dropConnections(path?: string): void;
  /** While on, WS upgrades and/or HTTP requests are answered 503 (the venue is "down"). */
  refuseConnections(on: boolean, which?: 'all' | 'ws' | 'http'): void;
  /** Delay applied to every venue → client frame, ms. */
  delayDownstreamMs: number;
  /**
   * Sees every frame as it is forwarded: `down` right before it is written to the client, `up` as
   * it arrives from the client (latency benches time the client between the two).
   */
  tap: ((dir: 'down' | 'up', text: string, path: string) => void) | null;
  /** Sends `text` to every client socket on `path` (or all) as if the venue had sent it. */
  inject(text: string, path?: string): void;
  /** Swallows venue → client frames matching `pred` until cleared; returns what was withheld. */
  withhold(pred: FramePredicate): () => string[];
  /**
   * Freezes every proxied socket on `path` (or all) as a hung peer would: nothing is read from the
   * client, so neither frames nor pongs to its pings come back, until the returned release is called.
   */
  freeze(path?: string): () => void;
  /** Swallows client → venue frames matching `pred` until cleared. */
  dropUpstream(pred: FramePredicate): () => void;
  /** Answers the next `times` matching HTTP requests with `response` instead of forwarding. */
  httpFault(match: (method: string, path: string) => boolean, response: CannedResponse, times?: number): void;
  /** Forwards the next `times` matching HTTP requests and replaces the venue's answer body with `rewrite`'s. */
  rewriteHttp(match: (method: string, path: string) => boolean, rewrite: BodyRewrite, times?: number): void;
  /** Live proxied WebSocket count per path. */
  openSockets(path?: string): number;
  readonly stats: { wsAccepted: number; httpForwarded: number; httpFaulted: number; framesDown: number; framesUp: number };
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (port 0) in front of `upstreamBaseUrl` (http://host:port). */
export async function startFaultProxy(upstreamBaseUrl: string): Promise<FaultProxy> {
  let upstream = new URL(upstreamBaseUrl);
  let refusingWs = false;
  let refusingHttp = false;
  const pairs = new Set<Pair>();
  const faults: HttpFault[] = [];
  const rewrites: HttpRewrite[] = [];
  const withholds = new Set<{ pred: FramePredicate; held: string[] }>();
  const upDrops = new Set<FramePredicate>();
  const sockets = new Set<Socket>();
  const agent = new Agent({ keepAlive: true });
  const stats = { wsAccepted: 0, httpForwarded: 0, httpFaulted: 0, framesDown: 0, framesUp: 0 };
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

  /** Withholds every downstream frame (part of a freeze); returns the release. */
  const withholdAll = (): (() => void) => {
    const w = { pred: (() => true) as FramePredicate, held: [] as string[] };
    withholds.add(w);
    return () => void withholds.delete(w);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    if (refusingHttp) return canned(res, { status: 503, body: '{"error":"venue down (proxy)"}' });
    const fault = faults.find((f) => f.remaining > 0 && f.match(method, path));
    if (fault) {
      fault.remaining--;
      stats.httpFaulted++;
      req.resume();
      return canned(res, fault.response);
    }
    stats.httpForwarded++;
    const fwd = httpRequest(
      { host: upstream.hostname, port: upstream.port, method, path, headers: { ...req.headers, host: upstream.host }, agent },
      (up) => {
        const rw = rewrites.find((r) => r.remaining > 0 && r.match(method, path));
        if (!rw) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        rw.remaining--;
        const parts: Buffer[] = [];
        up.on('data', (d: Buffer) => parts.push(d));
        up.on('end', () => {
          const body = rw.rewrite(Buffer.concat(parts).toString('utf8'), up.statusCode ?? 502);
          const { 'content-length': _len, 'transfer-encoding': _te, ...headers } = up.headers;
          res.writeHead(up.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    fwd.on('error', () => {
      if (!res.headersSent) canned(res, { status: 502, body: '{"error":"upstream unreachable (proxy)"}' });
      else res.destroy();
    });
    req.pipe(fwd);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (refusingWs) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const headers: Record<string, string> = {};
    if (typeof req.headers.authorization === 'string') headers['authorization'] = req.headers.authorization;
    const up = new WebSocket(`ws://${upstream.host}${req.url ?? '/'}`, { headers, perMessageDeflate: false });
    const early: string[] = [];
    up.on('message', (d: WebSocket.RawData) => early.push(d.toString()));
    up.on('unexpected-response', (_r, res) => {
      socket.end(`HTTP/1.1 ${res.statusCode ?? 502} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      res.resume();
      up.terminate();
    });
    up.on('error', () => {
      if (!socket.destroyed) socket.destroy();
    });
    up.once('open', () => {
      wss.handleUpgrade(req, socket, head, (client) => {
        stats.wsAccepted++;
        const pair: Pair = { path, client, upstream: up };
        pairs.add(pair);
        up.removeAllListeners('message');
        const down = (text: string): void => {
          for (const w of withholds) {
            if (w.pred(text, path)) {
              w.held.push(text);
              return;
            }
          }
          stats.framesDown++;
          const send = (): void => {
            proxy.tap?.('down', text, path);
            if (client.readyState === WebSocket.OPEN) client.send(text);
          };
          if (proxy.delayDownstreamMs > 0) setTimeout(send, proxy.delayDownstreamMs);
          else send();
        };
        for (const t of early) down(t);
        up.on('message', (d: WebSocket.RawData) => down(d.toString()));
        client.on('message', (d: WebSocket.RawData) => {
          const text = d.toString();
          proxy.tap?.('up', text, path);
          for (const p of upDrops) if (p(text, path)) return;
          stats.framesUp++;
          if (up.readyState === WebSocket.OPEN) up.send(text);
        });
        const end = (): void => {
          pairs.delete(pair);
          client.terminate();
          up.terminate();
        };
        // A clean close is passed on with its code (the venue tells a planned close from a drop).
        const closeOther = (other: WebSocket) => (code: number, reason: Buffer) => {
          if (other.readyState === WebSocket.OPEN && (code === 1000 || (code >= 3000 && code < 5000))) {
            pairs.delete(pair);
            other.close(code, reason.toString());
            return;
          }
          end();
        };
        up.on('close', closeOther(client));
        client.on('close', closeOther(up));
        client.on('error', end);
        up.on('error', end);
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const proxy: FaultProxy = {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    delayDownstreamMs: 0,
    tap: null,
    stats,
    setUpstream(url) {
      upstream = new URL(url);
    },
    dropConnections(path) {
      for (const p of [...pairs]) {
        if (path !== undefined && p.path !== path) continue;
        pairs.delete(p);
        p.client.terminate();
        p.upstream.terminate();
      }
      if (path === undefined) for (const s of sockets) s.destroy();
    },
    refuseConnections(on, which = 'all') {
      if (which !== 'http') refusingWs = on;
      if (which !== 'ws') refusingHttp = on;
    },
    inject(text, path) {
      for (const p of pairs) if (path === undefined || p.path === path) p.client.send(text);
    },
    withhold(pred) {
      const w = { pred, held: [] as string[] };
      withholds.add(w);
      return () => {
        withholds.delete(w);
        return w.held;
      };
    },
    freeze(path) {
      const frozen = [...pairs].filter((p) => path === undefined || p.path === path);
      const raw = (ws: WebSocket): { pause(): void; resume(): void } | undefined => (ws as unknown as { _socket?: { pause(): void; resume(): void } })._socket;
      for (const p of frozen) raw(p.client)?.pause();
      const release = withholdAll();
      return () => {
        release();
        for (const p of frozen) raw(p.client)?.resume();
      };
    },
    dropUpstream(pred) {
      upDrops.add(pred);
      return () => upDrops.delete(pred);
    },
    httpFault(match, response, times = 1) {
      faults.push({ match, response, remaining: times });
    },
    rewriteHttp(match, rewrite, times = 1) {
      rewrites.push({ match, rewrite, remaining: times });
    },
    openSockets(path) {
      return [...pairs].filter((p) => path === undefined || p.path === path).length;
    },
    async close() {
      for (const p of pairs) {
        p.client.terminate();
        p.upstream.terminate();
      }
      pairs.clear();
      wss.close();
      agent.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

function canned(res: ServerResponse, r: CannedResponse): void {
  const body = r.body ?? '';
  res.writeHead(r.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...r.headers });
  res.end(body);
}
