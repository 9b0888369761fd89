/** Decode cost of the wire hot path: text → decoded wire value, JSON.parse included. */
import { decodeMdEvent, decodeMdWsFrame, decodeOrderWsEvent, decodeOrderWsFrame, encodeMdEvent, encodeOrderWsEvent, type WireBookLevel, type WireMdEvent, type WireOrderWsEvent } from '../../src/wire/index.ts';
import { microsPerCall, type Bench } from './bench-kit.ts';

const ORDER_EVENT =
  '{"t":"f","ts":1790228425,"tn":163976017,"eid":"E-01K5Z3J5N0V8S6Q4C7W2XKD9TB","o":{"oid":"O-01K5Z3J5N0V8S6Q4C7W2XKD9TC","u":"01KCQM-4WP1-0000","aid":"01KCQM-4WP1-0000","s":"EURUSD-PERP","p":"1.1408","q":100,"xq":100,"rq":0,"o":"FILLED","d":"B","tif":"IOC","cid":10078,"tag":"mm1","po":false,"rb":"rej","ts":1790228425,"tn":157580594},"xs":{"tid":"T-01K5Z3J5N0V8S6Q4C7W2XKD9TD","aid":"01KCQM-4WP1-0000","s":"EURUSD-PERP","q":100,"p":"1.1388","d":"B","agg":true}}';

function l2Snapshot(levels: number): string {
  const side = (start: number, step: number): WireBookLevel[] =>
    Array.from({ length: levels }, (_, i) => ({ p: (start + step * i).toFixed(4), q: 100 * (i + 1) }));
  return encodeMdEvent({ t: '2', ts: 1790222018, tn: 825180659, s: 'GBPUSD-PERP', b: side(1.3254, -0.0001), a: side(1.326, 0.0001), st: true });
}

const L2 = l2Snapshot(20);
const TICKER =
  '{"t":"s","ts":1790222018,"tn":833155747,"s":"EURUSD-PERP","p":"1.1388","q":300,"o":"1.143700000000","l":"1.116","h":"1.24","v":33347300,"oi":12452800,"i":"OPEN","m":"1.1388","bp":"1.138","ap":"1.1388","pl":"1.0261","pu":"1.2541","lsp":"1.1401","lst":1790175600}';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`bench fixture failed to decode: ${what}`);
}

export const benches: Bench[] = [
  {
    name: 'wire decode (JSON.parse + validation)',
    async run() {
      check(decodeOrderWsFrame(ORDER_EVENT).ok, 'order event');
      check(decodeMdWsFrame(L2).ok, 'L2 snapshot');
      check(decodeMdWsFrame(TICKER).ok, 'ticker');
      const n = 200_000;
      const orderValue: unknown = JSON.parse(ORDER_EVENT);
      const l2Value: unknown = JSON.parse(L2);
      const orderEvent = (decodeOrderWsFrame(ORDER_EVENT) as { value: WireOrderWsEvent }).value;
      const l2Event = (decodeMdWsFrame(L2) as { value: WireMdEvent }).value;
      return {
        'wire.decode_order_event_us': { value: microsPerCall(() => decodeOrderWsFrame(ORDER_EVENT), n), unit: 'us', target: '< 2' },
        'wire.decode_l2_snapshot_us': { value: microsPerCall(() => decodeMdWsFrame(L2), n / 4), unit: 'us', target: '< 10' },
        'wire.decode_ticker_us': { value: microsPerCall(() => decodeMdWsFrame(TICKER), n), unit: 'us' },
        // Validation alone (value already parsed): the decoder's own cost, robust to a loaded machine.
        'wire.validate_order_event_us': { value: microsPerCall(() => decodeOrderWsEvent(orderValue), n), unit: 'us' },
        'wire.validate_l2_snapshot_us': { value: microsPerCall(() => decodeMdEvent(l2Value), n / 4), unit: 'us' },
        // Encoding (the local venue sends with these): typed value → compact JSON text.
        'wire.encode_order_event_us': { value: microsPerCall(() => encodeOrderWsEvent(orderEvent), n), unit: 'us' },
        'wire.encode_l2_snapshot_us': { value: microsPerCall(() => encodeMdEvent(l2Event), n / 4), unit: 'us' },
        'wire.json_parse_order_event_us': { value: microsPerCall(() => JSON.parse(ORDER_EVENT), n), unit: 'us' },
        'wire.json_parse_l2_snapshot_us': { value: microsPerCall(() => JSON.parse(L2), n / 4), unit: 'us' },
      };
    },
  },
];
