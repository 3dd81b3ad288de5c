/**
 * A small strict XML reader for tests that check generated documents (the rack elevation SVG):
 * it throws on anything not well-formed (unbalanced or crossed tags, unquoted or repeated
 * attributes, a raw `<` or `&` in text, unknown entities) and returns the element tree with
 * entities decoded. Enough for our own output; no DTDs, no CDATA, no processing instructions
 * beyond a leading XML declaration.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: Array<XmlElement | string>;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, where: number): string {
  if (text.includes('<')) throw new Error(`XML: raw "<" near ${where}`);
  return text.replace(/&([^;\s&]*);?/g, (whole, ent: string) => {
    if (!whole.endsWith(';')) throw new Error(`XML: bare "&" near ${where}`);
    if (ENTITIES[ent] !== undefined) return ENTITIES[ent]!;
    const num = /^#(x[0-9a-fA-F]+|\d+)$/.exec(ent);
    if (num) return String.fromCodePoint(num[1]!.startsWith('x') ? parseInt(num[1]!.slice(1), 16) : Number(num[1]));
    throw new Error(`XML: unknown entity &${ent}; near ${where}`);
  });
}

export function parseXml(source: string): XmlElement {
  let i = source.startsWith('<?xml') ? source.indexOf('?>') + 2 : 0;
  const root: XmlElement = { name: '#document', attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const text = source.slice(i, lt < 0 ? source.length : lt);
    if (text.trim()) {
      if (stack.length === 1) throw new Error('XML: text outside the root element');
      stack.at(-1)!.children.push(decode(text, i));
    }
    if (lt < 0) break;
    if (source.startsWith('<!--', lt)) {
      const end = source.indexOf('-->', lt);
      if (end < 0) throw new Error('XML: unterminated comment');
      i = end + 3;
      continue;
    }
    const gt = source.indexOf('>', lt);
    if (gt < 0) throw new Error('XML: unterminated tag');
    const tag = source.slice(lt + 1, gt);
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`XML: </${name}> closes <${open?.name}>`);
    } else {
      const selfClosing = tag.endsWith('/');
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const name = NAME.exec(body)?.[0];
      if (!name) throw new Error(`XML: bad tag <${tag}>`);
      const el: XmlElement = { name, attrs: {}, children: [] };
      let rest = body.slice(name.length);
      const attr = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/;
      for (let m = attr.exec(rest); m; m = attr.exec(rest)) {
        if (m[1]! in el.attrs) throw new Error(`XML: repeated attribute ${m[1]} in <${name}>`);
        el.attrs[m[1]!] = decode(m[3] ?? m[4] ?? '', lt);
        rest = rest.slice(m[0].length);
      }
      if (rest.trim()) throw new Error(`XML: bad attributes in <${tag}>`);
      if (stack.length === 1 && root.children.length) throw new Error('XML: a second root element');
      stack.at(-1)!.children.push(el);
      if (!selfClosing) stack.push(el);
    }
    i = gt + 1;
  }
  if (stack.length !== 1) throw new Error(`XML: <${stack.at(-1)!.name}> is never closed`);
  const top = root.children[0];
  if (!top || typeof top === 'string') throw new Error('XML: no root element');
  return top;
}

/** every element named `name` below `el`, depth first */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    out.push(...findAll(c, name));
  }
  return out;
}

/** the text inside an element */
export const textOf = (el: XmlElement): string =>
  el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
