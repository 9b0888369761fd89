/** An XML element as `parseSvg` returns it. */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  /** The element's own text content (entities decoded). */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    const v = ENTITIES[e];
    if (v === undefined) throw new Error(`unknown entity ${m}`);
    return v;
  });

/**
 * A strict little XML parser for the report's inline SVG: well-formed tags only (every element
 * closed, attributes quoted and not repeated, no stray `<` or `&`). Throws naming the offset.
 */
export function parseSvg(src: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let i = 0;
  const fail = (msg: string): never => {
    throw new Error(`${msg} at offset ${i}: ${JSON.stringify(src.slice(i, i + 40))}`);
  };
  while (i < src.length) {
    if (src[i] !== '<') {
      const j = src.indexOf('<', i);
      const text = src.slice(i, j < 0 ? src.length : j);
      if (/&(?!(#x[0-9a-f]+|#\d+|\w+);)/i.test(text)) fail('bare &');
      if (stack.length === 0) {
        if (text.trim()) fail('text outside the root element');
      } else stack.at(-1)!.text += decode(text);
      i = j < 0 ? src.length : j;
      continue;
    }
    if (src.startsWith('</', i)) {
      const m = /^<\/([\w:-]+)\s*>/.exec(src.slice(i)) ?? fail('bad closing tag');
      const open = stack.pop() ?? fail('closing tag without an open element');
      if (open.name !== m[1]) fail(`</${m[1]}> closes <${open.name}>`);
      i += m[0].length;
      continue;
    }
    const m = /^<([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/.exec(src.slice(i)) ?? fail('bad tag');
    const attrs: Record<string, string> = {};
    for (const a of m[2]!.matchAll(/([\w:-]+)="([^"]*)"/g)) {
      if (a[1]! in attrs) fail(`repeated attribute ${a[1]}`);
      attrs[a[1]!] = decode(a[2]!);
    }
    const el: XmlElement = { name: m[1]!, attrs, children: [], text: '' };
    if (stack.length > 0) stack.at(-1)!.children.push(el);
    else if (root) fail('a second root element');
    else root = el;
    if (!m[3]) stack.push(el);
    i += m[0].length;
  }
  if (stack.length > 0) fail(`<${stack.at(-1)!.name}> is never closed`);
  return root ?? fail('no element');
}
