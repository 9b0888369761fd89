import type { SocketFactory, SocketHandlers, SocketLike } from '../../client/index.ts';
import type { Venue } from '../../sim/index.ts';
import type { MarketDataService } from '../../sim/md/md-service.ts';

/**
 * A market-data "socket" between the client and a headless local venue's hub, without TCP: the
 * upgrade is authorized like `/md/ws` (bearer token; 401/403 refuse it), the hub's encoded frames
 * are what the client decodes, and the client's requests are what the hub parses. Both directions
 * are queued and delivered by `pump()`, which a lock-step driver calls at each instant of the
 * venue clock: delivery is instant (zero latency) and in send order, and nothing is ever dropped
 * for backpressure (the consumer keeps up by construction).
 */
export class InProcessMdLink {
  /** Frames delivered to the client so far. */
  framesToClient = 0;
  readonly #queue: (() => void)[] = [];

  constructor(
    private readonly venue: Venue,
    private readonly md: MarketDataService,
    private readonly ip = '127.0.0.1',
  ) {}

  /** The factory to hand the market-data client (`socketFactory`). */
  readonly factory: SocketFactory = (url, headers, h) => this.#connect(url, headers, h);

  /** Delivers every queued frame and event (and whatever they cause); returns false when none was queued. */
  pump(): boolean {
    if (this.#queue.length === 0) return false;
    for (let i = 0; i < this.#queue.length; i++) this.#queue[i]!();
    this.#queue.length = 0;
    return true;
  }

  #connect(url: string, headers: Readonly<Record<string, string>>, h: SocketHandlers): SocketLike {
    let open = false;
    let closed = false;
    let handle: ReturnType<MarketDataService['attach']> | undefined;
    const close = (code: number, reason: string): void => {
      if (closed) return;
      closed = true;
      open = false;
      handle?.onClose();
      this.#queue.push(() => h.onClose(code, reason));
    };
    const path = new URL(url).pathname;
    const auth = headers['authorization'] ?? headers['Authorization'];
    const a = this.venue.auth.resolve(auth, this.ip);
    if (path !== '/md/ws') this.#refuse(h, 404, `no WebSocket endpoint ${path}`);
    else if (!a.ok) this.#refuse(h, a.error.status, a.error.message);
    else {
      this.#queue.push(() => {
        if (closed) return;
        open = true;
        handle = this.md.attach({
          send: (text) => {
            if (!open) return;
            this.#queue.push(() => {
              if (!open) return;
              this.framesToClient++;
              h.onMessage(text);
            });
          },
          bufferedAmount: 0,
        });
        h.onOpen();
      });
    }
    return {
      send: (text) => {
        if (open) this.#queue.push(() => void (open && handle!.onMessage(text)));
      },
      close: (code = 1000, reason = '') => close(code, reason),
      terminate: () => close(1006, ''),
      ping: () => {
        if (open) this.#queue.push(() => void (open && h.onControl?.('pong')));
      },
    };
  }

  #refuse(h: SocketHandlers, status: number, message: string): void {
    this.#queue.push(() => h.onError(new Error(`upgrade refused with HTTP ${status}: ${message}`), status));
  }
}
