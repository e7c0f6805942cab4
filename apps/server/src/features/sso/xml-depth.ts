/**
 * How deep an identity provider's XML may nest. SAML metadata and responses nest about ten levels;
 * the parser (its normalize step) and every walk over the document recurse once a level, and a few
 * thousand levels in a 512 KiB document overflowed the stack.
 */
export const XML_MAX_DEPTH = 64;

/** Where `marker` ends, searching from `from`; the text's end when it never comes (the parser refuses that text). */
function after(text: string, marker: string, from: number): number {
  const at = text.indexOf(marker, from);
  return at < 0 ? text.length : at + marker.length;
}

/** Where a start tag that begins at `from` ends: the first `>` outside a quoted attribute value. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return text.length;
}

/** A start tag that surely opens nothing: a name, quoted attributes, `/>`. Anything odder is counted as open. */
const SELF_CLOSING = /^<[^\s/>"'=<]+(?:\s+[^\s/>"'=<]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*\/>$/;

/**
 * Whether elements in `xml` nest deeper than `max`, read from the text before the parser sees it
 * (one pass, no recursion). Comments, CDATA sections, processing instructions and quoted attribute
 * values are skipped, and an end tag closes only the element it names, as the parser does; it
 * never counts fewer levels than the parser builds from a document it accepts.
 */
export function nestsDeeperThan(xml: string, max: number): boolean {
  const open: string[] = [];
  let at = xml.indexOf('<');
  while (at >= 0 && at < xml.length) {
    const next = xml[at + 1];
    if (xml.startsWith('<!--', at)) at = after(xml, '-->', at + 4);
    else if (xml.startsWith('<![CDATA[', at)) at = after(xml, ']]>', at + 9);
    else if (next === '?') at = after(xml, '?>', at + 2);
    else if (next === '!') at = after(xml, '>', at + 2);
    else if (next === '/') {
      const end = after(xml, '>', at + 2);
      const name = xml.slice(at + 2, end - 1).trimEnd();
      if (open.at(-1)?.toLowerCase() === name.toLowerCase()) open.pop();
      at = end;
    } else {
      const end = tagEnd(xml, at + 1);
      // An element is one level below the open ones, even when it opens nothing.
      if (open.length + 1 > max) return true;
      if (!SELF_CLOSING.test(xml.slice(at, end + 1))) open.push(/^<([^\s/>]*)/.exec(xml.slice(at, end))?.[1] ?? '');
      at = end + 1;
    }
    at = xml.indexOf('<', at);
  }
  return false;
}

/** Whether a parsed document nests elements deeper than `max`, walked without recursion. */
export function documentDeeperThan(doc: Document, max: number): boolean {
  const pending: [Node, number][] = [[doc, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [Node, number];
    if (depth > max) return true;
    for (let child = node.firstChild; child; child = child.nextSibling)
      if (child.nodeType === 1) pending.push([child, depth + 1]);
  }
  return false;
}
