// The floor of the process e2e bench: a trivial process that answers every WebSocket text frame
// with the same text, over the same `ws` sockets (no compression) the daemon and the venue use.
// Plain JS (no TypeScript loader), so it starts fast and does nothing but echo. Prints its port.
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});
wss.on('listening', () => process.stdout.write(`${wss.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
