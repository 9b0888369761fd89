/**
 * Heap growth by owner between two V8 heap snapshots of the same process (node
 * `--heapsnapshot-signal`, `v8.writeHeapSnapshot`): objects only in the later snapshot count +,
 * objects only in the earlier one −, each charged to its first ancestor present in both (on the
 * shortest path from the GC roots, weak edges skipped), named by that path
 * (`venue:Venue > engine:OrderEngine > #store:OrderStore > ...`). V8 keeps object ids across
 * snapshots of one process, so a bounded structure that churns nets to ~0 and one still filling
 * shows its growth. `npm run heap-diff -- A.heapsnapshot B.heapsnapshot [--top 25]`.
 */
import { readFileSync } from 'node:fs';

/** The parts of a `.heapsnapshot` file this reads. */
export interface RawHeapSnapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: string[]; readonly node_types: unknown[]; readonly edge_fields: string[]; readonly edge_types: unknown[] } };
  readonly nodes: number[];
  readonly edges: number[];
  readonly strings: string[];
}

/** One owner's net growth, bytes of self size. */
export interface OwnerGrowth {
  /** Path from the roots to the owner (edge:constructor, the last 16 steps). */
  readonly path: string;
  readonly netBytes: number;
  readonly addedBytes: number;
  readonly freedBytes: number;
  /** Net bytes by kind of object (constructor or V8 type), largest first. */
  readonly byKind: readonly (readonly [string, number])[];
}

interface Graph {
  readonly raw: RawHeapSnapshot;
  readonly nf: number;
  readonly ef: number;
  readonly f: { type: number; name: number; id: number; size: number; edges: number; eType: number; eName: number; eTo: number };
  readonly nodeTypes: string[];
  readonly edgeTypes: string[];
  readonly n: number;
  readonly parent: Int32Array;
  readonly parentEdge: Int32Array;
  readonly reached: Uint8Array;
  readonly ids: Set<number>;
  readonly indexOfId: Map<number, number>;
}

function graph(raw: RawHeapSnapshot): Graph {
  const m = raw.snapshot.meta;
  const nf = m.node_fields.length;
  const ef = m.edge_fields.length;
  const f = {
    type: m.node_fields.indexOf('type'),
    name: m.node_fields.indexOf('name'),
    id: m.node_fields.indexOf('id'),
    size: m.node_fields.indexOf('self_size'),
    edges: m.node_fields.indexOf('edge_count'),
    eType: m.edge_fields.indexOf('type'),
    eName: m.edge_fields.indexOf('name_or_index'),
    eTo: m.edge_fields.indexOf('to_node'),
  };
  const n = raw.nodes.length / nf;
  const first = new Uint32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    first[i] = e;
    e += raw.nodes[i * nf + f.edges]! * ef;
    first[i + 1] = e;
  }
  const edgeTypes = m.edge_types[0] as string[];
  const weak = edgeTypes.indexOf('weak');
  // Breadth-first from the synthetic root: the shortest retaining path of every reachable object.
  const parent = new Int32Array(n).fill(-1);
  const parentEdge = new Int32Array(n).fill(-1);
  const reached = new Uint8Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  reached[0] = 1;
  while (head < tail) {
    const x = queue[head++]!;
    for (let e = first[x]!; e < first[x + 1]!; e += ef) {
      if (raw.edges[e + f.eType] === weak) continue;
      const to = raw.edges[e + f.eTo]! / nf;
      if (reached[to]) continue;
      reached[to] = 1;
      parent[to] = x;
      parentEdge[to] = e;
      queue[tail++] = to;
    }
  }
  const ids = new Set<number>();
  const indexOfId = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (!reached[i]) continue;
    const id = raw.nodes[i * nf + f.id]!;
    ids.add(id);
    indexOfId.set(id, i);
  }
  return { raw, nf, ef, f, nodeTypes: m.node_types[0] as string[], edgeTypes, n, parent, parentEdge, reached, ids, indexOfId };
}

function kindOf(g: Graph, i: number): string {
  const type = g.nodeTypes[g.raw.nodes[i * g.nf + g.f.type]!]!;
  const name = g.raw.strings[g.raw.nodes[i * g.nf + g.f.name]!]!;
  if (type === 'object' || type === 'closure') return name;
  return type === 'string' || type === 'concatenated string' || type === 'sliced string' ? `(${type})` : `(${type}) ${name.slice(0, 30)}`;
}

function edgeLabel(g: Graph, e: number): string {
  const type = g.edgeTypes[g.raw.edges[e + g.f.eType]!];
  const v = g.raw.edges[e + g.f.eName]!;
  return type === 'element' || type === 'hidden' ? `[${v}]` : String(g.raw.strings[v]).slice(0, 40);
}

function pathOf(g: Graph, i: number): string {
  const steps: string[] = [];
  for (let x = i; x > 0 && steps.length < 16; x = g.parent[x]!) steps.push(`${edgeLabel(g, g.parentEdge[x]!)}:${kindOf(g, x).slice(0, 28)}`);
  return steps.reverse().join(' > ');
}

interface Tally {
  net: number;
  added: number;
  freed: number;
  readonly kinds: Map<string, number>;
}

/** Charges every object of `g` absent from `other` to its first ancestor present in `other`. */
function charge(g: Graph, other: Set<number>, sign: 1 | -1, into: Map<number, Tally>): void {
  const owner = new Int32Array(g.n).fill(-2);
  const kept = (i: number): boolean => other.has(g.raw.nodes[i * g.nf + g.f.id]!);
  for (let i = 0; i < g.n; i++) {
    if (!g.reached[i] || kept(i)) continue;
    const path: number[] = [];
    let x = i;
    while (x >= 0 && owner[x] === -2 && !kept(x)) {
      path.push(x);
      x = g.parent[x]!;
    }
    const o = x < 0 ? -1 : owner[x] !== -2 ? owner[x]! : x;
    for (const p of path) owner[p] = o;
    const ownerId = o < 0 ? -1 : g.raw.nodes[o * g.nf + g.f.id]!;
    const bytes = g.raw.nodes[i * g.nf + g.f.size]!;
    let t = into.get(ownerId);
    if (!t) into.set(ownerId, (t = { net: 0, added: 0, freed: 0, kinds: new Map() }));
    t.net += sign * bytes;
    if (sign > 0) t.added += bytes;
    else t.freed += bytes;
    const k = kindOf(g, i);
    t.kinds.set(k, (t.kinds.get(k) ?? 0) + sign * bytes);
  }
}

/** Total self size of the reachable objects, bytes. */
function reachableBytes(g: Graph): number {
  let s = 0;
  for (let i = 0; i < g.n; i++) if (g.reached[i]) s += g.raw.nodes[i * g.nf + g.f.size]!;
  return s;
}

/** Net growth from snapshot `a` to `b` by owner, largest |net| first, and the totals. */
export function heapGrowthByOwner(a: RawHeapSnapshot, b: RawHeapSnapshot): { readonly aBytes: number; readonly bBytes: number; readonly owners: OwnerGrowth[] } {
  const ga = graph(a);
  const gb = graph(b);
  const by = new Map<number, Tally>();
  charge(gb, ga.ids, 1, by);
  charge(ga, gb.ids, -1, by);
  const owners = [...by]
    .map(([id, t]): OwnerGrowth => {
      const i = gb.indexOfId.get(id);
      return {
        path: i === undefined ? '(no common ancestor)' : i === 0 ? '(root)' : pathOf(gb, i),
        netBytes: t.net,
        addedBytes: t.added,
        freedBytes: t.freed,
        byKind: [...t.kinds].sort((x, y) => Math.abs(y[1]) - Math.abs(x[1])),
      };
    })
    .sort((x, y) => Math.abs(y.netBytes) - Math.abs(x.netBytes));
  return { aBytes: reachableBytes(ga), bBytes: reachableBytes(gb), owners };
}

/** A printable report of the `top` owners. */
export function formatHeapGrowth(r: ReturnType<typeof heapGrowthByOwner>, top = 25): string {
  const kb = (b: number): string => `${(b / 1024).toFixed(1)} KB`;
  const lines = [`reachable ${kb(r.aBytes)} → ${kb(r.bBytes)}: net ${kb(r.bBytes - r.aBytes)}`];
  for (const o of r.owners.slice(0, top)) {
    lines.push(`net ${kb(o.netBytes)} (+${kb(o.addedBytes)} −${kb(o.freedBytes)}) under ${o.path}`);
    lines.push(`    ${o.byKind.slice(0, 6).map(([k, v]) => `${k} ${kb(v)}`).join(', ')}`);
  }
  return lines.join('\n');
}

/** Reads a `.heapsnapshot` file. */
export function readHeapSnapshot(path: string): RawHeapSnapshot {
  return JSON.parse(readFileSync(path, 'utf8')) as RawHeapSnapshot;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const [a, b] = process.argv.slice(2).filter((x) => !x.startsWith('--'));
  const topAt = process.argv.indexOf('--top');
  if (!a || !b) {
    process.stderr.write('usage: npm run heap-diff -- A.heapsnapshot B.heapsnapshot [--top 25]\n');
    process.exit(2);
  }
  process.stdout.write(`${formatHeapGrowth(heapGrowthByOwner(readHeapSnapshot(a), readHeapSnapshot(b)), topAt > 0 ? Number(process.argv[topAt + 1]) : 25)}\n`);
}
