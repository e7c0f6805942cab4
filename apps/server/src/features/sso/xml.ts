import { DOMParser } from '@xmldom/xmldom';
import { documentDeeperThan, nestsDeeperThan, XML_MAX_DEPTH } from './xml-depth.ts';

export const NS = {
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

class UnsafeXml extends Error {}

/**
 * Parses untrusted XML (IdP metadata, a SAMLResponse) safely: a document type declaration of any
 * kind is refused before parsing (no DTD, so no entity expansion, internal or external), and so is
 * nesting deeper than any SAML document needs (the parser and the walks over the result recurse a
 * level at a time) and anything the parser reports as an error.
 */
export function parseUntrustedXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) throw new UnsafeXml('document type declarations are not allowed');
  if (nestsDeeperThan(xml, XML_MAX_DEPTH)) throw new UnsafeXml(`elements nest deeper than ${XML_MAX_DEPTH} levels`);
  const problems: string[] = [];
  const doc = new DOMParser({
    locator: {},
    errorHandler: {
      warning: () => undefined,
      error: (message: string) => void problems.push(message),
      fatalError: (message: string) => void problems.push(message),
    },
  }).parseFromString(xml, 'text/xml') as unknown as Document;
  if (problems.length > 0 || !doc?.documentElement) throw new UnsafeXml(`not well-formed XML: ${problems[0] ?? 'empty'}`);
  // Checked again on what the parser built: the walks over it must never meet a deeper document.
  if (documentDeeperThan(doc, XML_MAX_DEPTH)) throw new UnsafeXml(`elements nest deeper than ${XML_MAX_DEPTH} levels`);
  return doc;
}

/** Every element under `root` (itself included) with this namespace and local name, in document order. */
export function elements(root: Node, ns: string, local: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 1) {
      const el = node as Element;
      if (el.namespaceURI === ns && el.localName === local) found.push(el);
    }
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
  };
  walk(root);
  return found;
}

/** The element children of `parent` with this namespace and local name. */
export function children(parent: Element, ns: string, local: string): Element[] {
  const found: Element[] = [];
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1 && (child as Element).namespaceURI === ns && (child as Element).localName === local)
      found.push(child as Element);
  }
  return found;
}

/** The text of an element that holds text only; null when it holds comments, elements or other nodes. */
export function pureText(el: Element): string | null {
  let text = '';
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== 3 && child.nodeType !== 4) return null;
    text += child.nodeValue ?? '';
  }
  return text;
}
