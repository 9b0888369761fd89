import { describe, expect, it } from 'vitest';
import { heapGrowthByOwner, type RawHeapSnapshot } from './heap-diff.ts';

/** A snapshot from [id, type, name, size, edges: [edge type, name, target id]] (the first node is the root). */
function snap(nodes: [number, string, string, number, [string, string, number][]][]): RawHeapSnapshot {
  const types = ['synthetic', 'object', 'string'];
  const edgeTypes = ['property', 'element', 'weak'];
  const strings: string[] = [];
  const str = (x: string): number => (strings.includes(x) ? strings.indexOf(x) : strings.push(x) - 1);
  const index = new Map(nodes.map(([id], i) => [id, i]));
  const flatNodes: number[] = [];
  const flatEdges: number[] = [];
  for (const [id, type, name, size, edges] of nodes) {
    flatNodes.push(types.indexOf(type), str(name), id, size, edges.length);
    for (const [t, n, to] of edges) flatEdges.push(edgeTypes.indexOf(t), str(n), index.get(to)! * 5);
  }
  return {
    snapshot: { meta: { node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'], node_types: [types], edge_fields: ['type', 'name_or_index', 'to_node'], edge_types: [edgeTypes] } },
    nodes: flatNodes,
    edges: flatEdges,
    strings,
  };
}

describe('heap growth by owner', () => {
  it('charges objects added and freed to their first surviving ancestor, weak edges ignored', () => {
    const a = snap([
      [1, 'synthetic', '(root)', 0, [['property', 'venue', 3], ['property', 'cache', 4]]],
      [3, 'object', 'Venue', 10, [['property', 'fills', 5]]],
      [4, 'object', 'Cache', 10, []],
      [5, 'object', 'Array', 20, [['element', '0', 11], ['element', '1', 12]]],
      [11, 'object', 'Fill', 30, []],
      [12, 'object', 'Fill', 30, []],
    ]);
    const b = snap([
      [1, 'synthetic', '(root)', 0, [['property', 'venue', 3], ['property', 'cache', 4]]],
      [3, 'object', 'Venue', 10, [['property', 'fills', 5]]],
      [4, 'object', 'Cache', 10, [['weak', 'w', 21]]],
      // One fill dropped, three added (one with a string): +70 net under fills; a weakly held object counts nowhere.
      [5, 'object', 'Array', 20, [['element', '1', 12], ['element', '2', 13], ['element', '3', 14], ['element', '4', 15]]],
      [12, 'object', 'Fill', 30, []],
      [13, 'object', 'Fill', 30, [['property', 'id', 16]]],
      [14, 'object', 'Fill', 30, []],
      [15, 'object', 'Fill', 30, []],
      [16, 'string', 'abc', 10, []],
      [21, 'object', 'Ghost', 500, []],
    ]);
    const r = heapGrowthByOwner(a, b);
    expect(r.aBytes).toBe(100);
    expect(r.bBytes).toBe(170);
    expect(r.owners).toHaveLength(1);
    const [fills] = r.owners;
    expect(fills!.path).toBe('venue:Venue > fills:Array');
    expect([fills!.netBytes, fills!.addedBytes, fills!.freedBytes]).toEqual([70, 100, 30]);
    expect(fills!.byKind).toEqual([['Fill', 60], ['(string)', 10]]);
  });
});
