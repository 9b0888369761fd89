import type { WsRegistry } from '../server/ws-registry.ts';
import type { MarketDataService } from './md-service.ts';

/** Registers `/md/ws` (bearer token checked on the upgrade by the registry: 401 before upgrading). */
export function registerMarketDataWs(ws: WsRegistry, md: MarketDataService): void {
  ws.register('/md/ws', {
    auth: true,
    onConnection(socket) {
      const conn = {
        send: (text: string) => {
          if (socket.readyState === socket.OPEN) socket.send(text);
        },
        get bufferedAmount() {
          return socket.bufferedAmount;
        },
      };
      const h = md.attach(conn);
      socket.on('message', (data, isBinary) => {
        if (!isBinary) h.onMessage(data.toString());
      });
      socket.on('close', () => h.onClose());
      socket.on('error', () => h.onClose());
    },
  });
}
