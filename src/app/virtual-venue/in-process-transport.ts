import type { HttpRequest, HttpResponse, HttpTransport } from '../../client/index.ts';
import { dispatch, parseJsonText, type HeadlessVenue } from '../../sim/index.ts';

/**
 * The REST client's transport straight into a headless local venue's router: the same routes,
 * auth and encoded bodies as over HTTP, answered within the current instant of the venue's clock
 * (no sockets, no wall time). `started` and `inFlight` let a lock-step driver wait for the
 * requests a timer set off before it moves the clock on.
 */
export class InProcessTransport implements HttpTransport {
  /** Requests started so far. */
  started = 0;
  /** Requests started and not yet answered. */
  inFlight = 0;

  constructor(
    private readonly venue: HeadlessVenue,
    /** The caller's address as the venue sees it (IP allowlists). */
    private readonly ip = '127.0.0.1',
  ) {}

  async request(req: HttpRequest): Promise<HttpResponse> {
    this.started++;
    this.inFlight++;
    try {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
      const body = req.body;
      const out = await dispatch(this.venue.venue, this.venue.router, {
        method: req.method,
        url: req.path,
        headers,
        ip: this.ip,
        readBody: () => Promise.resolve(body === undefined || body === '' ? undefined : parseJsonText(body)),
      });
      return { status: out.status, headers: { 'content-type': 'application/json' }, text: out.text };
    } finally {
      this.inFlight--;
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
