import { attributeNames, type IdpType } from '@latchkey/contracts';
import { children, elements, NS, parseUntrustedXml, pureText } from './xml.ts';

/** The tester's names for what a response is checked for, in the order they run. */
export const CHECKS = [
  'xml',
  'structure',
  'status',
  'in_response_to',
  'signature_algorithm',
  'issuer',
  'destination',
  'recipient',
  'signature',
  'audience',
  'time_window',
  'one_time_use',
  'email',
] as const;
export type CheckName = (typeof CHECKS)[number];

/** A refused response: which check failed and the §8 code the sso page shows. */
export class SamlRefused extends Error {
  constructor(
    readonly check: CheckName,
    message: string,
    readonly code: string = '45038',
  ) {
    super(message);
  }
}

const STRONG_SIGNATURES = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512',
]);
const STRONG_DIGESTS = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

export interface ResponseFacts {
  inResponseTo: string;
  destination: string | null;
  responseIssuer: string | null;
  assertionIssuer: string | null;
  assertionId: string;
  responseSigned: boolean;
  assertionSigned: boolean;
  /** The NameID's text, or null without one. */
  nameId: string | null;
  recipients: string[];
  subjectInResponseTo: string[];
  audiences: string[];
  notBefore: string | null;
  notOnOrAfter: string[];
  attributes: Record<string, string[]>;
}

const attr = (el: Element, name: string): string | null => (el.hasAttribute(name) ? el.getAttribute(name) : null);

/**
 * What the ACS checks before the SAML library sees a response (the library alone was seen
 * accepting a wrong Recipient or Destination, another Issuer, SHA-1, a DOCTYPE, and a Response
 * signature that fails when only the assertion must be signed). The shape is held to exactly what
 * a plain response is, which defeats signature wrapping: one Assertion, a direct child of the
 * Response; no two elements with one ID; a signature only as the first-level child of the element
 * it signs, referring to that element's ID; strong algorithms only; a NameID of text only (a
 * comment in it is refused, never read around).
 */
export function inspectResponse(xml: string): ResponseFacts {
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml);
  } catch (error) {
    throw new SamlRefused('xml', (error as Error).message);
  }
  const response = doc.documentElement;
  if (response.namespaceURI !== NS.samlp || response.localName !== 'Response')
    throw new SamlRefused('structure', 'the document is not a SAML Response');
  if (elements(response, NS.saml, 'EncryptedAssertion').length > 0)
    throw new SamlRefused('structure', 'encrypted assertions are not accepted');
  const assertions = elements(response, NS.saml, 'Assertion');
  if (assertions.length !== 1) throw new SamlRefused('structure', `the response holds ${assertions.length} assertions, not one`);
  const assertion = assertions[0] as Element;
  if (assertion.parentNode !== response) throw new SamlRefused('structure', 'the assertion is not a child of the response');
  const ids = new Set<string>();
  const everything = (node: Node, visit: (el: Element) => void) => {
    if (node.nodeType === 1) visit(node as Element);
    for (let c = node.firstChild; c; c = c.nextSibling) everything(c, visit);
  };
  everything(response, (el) => {
    for (const name of ['ID', 'Id', 'id']) {
      const value = attr(el, name);
      if (value === null) continue;
      if (ids.has(value)) throw new SamlRefused('structure', 'two elements share one ID');
      ids.add(value);
    }
  });
  const responseId = attr(response, 'ID');
  const assertionId = attr(assertion, 'ID');
  if (!responseId || !assertionId) throw new SamlRefused('structure', 'the response or assertion has no ID');

  const statusCode = children(children(response, NS.samlp, 'Status')[0] ?? response, NS.samlp, 'StatusCode')[0];
  if (statusCode?.getAttribute('Value') !== SUCCESS)
    throw new SamlRefused('status', 'the identity provider did not answer Success');

  const inResponseTo = attr(response, 'InResponseTo');
  if (!inResponseTo) throw new SamlRefused('in_response_to', 'an unsolicited (IdP-initiated) response', '45044');

  let responseSigned = false;
  let assertionSigned = false;
  for (const signature of elements(response, NS.ds, 'Signature')) {
    const parent = signature.parentNode as Element | null;
    if (parent !== response && parent !== assertion)
      throw new SamlRefused('structure', 'a signature outside the response or assertion');
    const own = parent === response ? responseId : assertionId;
    const refs = elements(signature, NS.ds, 'Reference');
    if (refs.length !== 1 || refs[0]?.getAttribute('URI') !== `#${own}`)
      throw new SamlRefused('signature', 'a signature that does not sign the element it is in');
    if (parent === response) {
      if (responseSigned) throw new SamlRefused('structure', 'two signatures on the response');
      responseSigned = true;
    } else {
      if (assertionSigned) throw new SamlRefused('structure', 'two signatures on the assertion');
      assertionSigned = true;
    }
    for (const method of elements(signature, NS.ds, 'SignatureMethod'))
      if (!STRONG_SIGNATURES.has(method.getAttribute('Algorithm') ?? ''))
        throw new SamlRefused(
          'signature_algorithm',
          `signature algorithm ${method.getAttribute('Algorithm')} is not accepted (SHA-256 or stronger)`,
        );
    for (const method of elements(signature, NS.ds, 'DigestMethod'))
      if (!STRONG_DIGESTS.has(method.getAttribute('Algorithm') ?? ''))
        throw new SamlRefused(
          'signature_algorithm',
          `digest algorithm ${method.getAttribute('Algorithm')} is not accepted (SHA-256 or stronger)`,
        );
  }

  const issuerOf = (el: Element) => {
    const issuer = children(el, NS.saml, 'Issuer')[0];
    return issuer ? (pureText(issuer) ?? '\u0000').trim() : null;
  };
  const subject = children(assertion, NS.saml, 'Subject')[0];
  const nameIdEl = subject ? children(subject, NS.saml, 'NameID')[0] : undefined;
  let nameId: string | null = null;
  if (nameIdEl) {
    const text = pureText(nameIdEl);
    if (text === null) throw new SamlRefused('structure', 'the NameID holds more than text (a comment or an element)');
    nameId = text.trim() || null;
  }
  const confirmations = subject
    ? children(subject, NS.saml, 'SubjectConfirmation').filter((c) => c.getAttribute('Method') === BEARER)
    : [];
  const data = confirmations.flatMap((c) => children(c, NS.saml, 'SubjectConfirmationData'));
  const conditions = children(assertion, NS.saml, 'Conditions')[0];
  const audiences = conditions
    ? children(conditions, NS.saml, 'AudienceRestriction').flatMap((r) =>
        children(r, NS.saml, 'Audience').map((a) => (pureText(a) ?? '').trim()),
      )
    : [];
  const attributes: Record<string, string[]> = {};
  for (const statement of children(assertion, NS.saml, 'AttributeStatement'))
    for (const attribute of children(statement, NS.saml, 'Attribute')) {
      const name = attribute.getAttribute('Name') ?? '';
      const values = children(attribute, NS.saml, 'AttributeValue')
        .map((v) => pureText(v))
        .filter((v): v is string => v !== null)
        .map((v) => v.trim());
      if (name) attributes[name] = [...(attributes[name] ?? []), ...values];
    }
  return {
    inResponseTo,
    destination: attr(response, 'Destination'),
    responseIssuer: issuerOf(response),
    assertionIssuer: issuerOf(assertion),
    assertionId,
    responseSigned,
    assertionSigned,
    nameId,
    recipients: data.map((d) => d.getAttribute('Recipient') ?? ''),
    subjectInResponseTo: data.map((d) => d.getAttribute('InResponseTo') ?? ''),
    audiences,
    notBefore: conditions ? attr(conditions, 'NotBefore') : null,
    notOnOrAfter: [
      ...(conditions && attr(conditions, 'NotOnOrAfter') ? [attr(conditions, 'NotOnOrAfter') as string] : []),
      ...data.map((d) => d.getAttribute('NotOnOrAfter') ?? '').filter(Boolean),
    ],
    attributes,
  };
}

/** The checks that need the connector: issuer, destination, recipient, audience, time window. */
export function checkAgainst(
  facts: ResponseFacts,
  expected: { idpEntityId: string; acsUrl: string; spEntityId: string; requestId: string; now: number; skewMs: number },
): void {
  if (
    facts.assertionIssuer !== expected.idpEntityId ||
    (facts.responseIssuer !== null && facts.responseIssuer !== expected.idpEntityId)
  )
    throw new SamlRefused('issuer', "the issuer is not the connector's identity provider");
  if (facts.destination !== expected.acsUrl) throw new SamlRefused('destination', 'the Destination is not our ACS URL');
  if (facts.recipients.length === 0 || facts.recipients.some((r) => r !== expected.acsUrl))
    throw new SamlRefused('recipient', 'the bearer confirmation Recipient is not our ACS URL');
  if (facts.subjectInResponseTo.some((r) => r !== expected.requestId))
    throw new SamlRefused('in_response_to', 'the subject confirmation answers another request');
  if (facts.audiences.length === 0 || facts.audiences.some((a) => a !== expected.spEntityId))
    throw new SamlRefused('audience', 'the assertion is for another audience');
  const time = (value: string) => Date.parse(value);
  if (facts.notBefore && !(time(facts.notBefore) - expected.skewMs <= expected.now))
    throw new SamlRefused('time_window', 'the assertion is not valid yet');
  if (facts.notOnOrAfter.length === 0) throw new SamlRefused('time_window', 'the assertion has no expiry');
  if (facts.notOnOrAfter.some((v) => !(expected.now < time(v) + expected.skewMs)))
    throw new SamlRefused('time_window', 'the assertion has expired');
}

const EMAIL = /^[^\s@<>()]+@[^\s@<>()]+\.[^\s@<>()]+$/;

/** The values of the attributes with these names (lower case), in the order of the names. */
const pick = (attributes: Record<string, string[]>, names: readonly string[]) =>
  names.flatMap((name) =>
    Object.entries(attributes)
      .filter(([k]) => k.toLowerCase() === name)
      .flatMap(([, v]) => v),
  );

/**
 * What the tester shows of the identity: NameID, email, name, groups, and the rest. The attribute
 * names are the preset's (Entra ID's claim URIs, OneLogin's User.email, JumpCloud's memberOf…)
 * before the ones every provider may use.
 */
export function identityOf(facts: ResponseFacts, idpType: IdpType = 'generic_saml') {
  const names = attributeNames(idpType);
  const emails = pick(facts.attributes, names.email);
  const email = facts.nameId && EMAIL.test(facts.nameId) ? facts.nameId : (emails[0] ?? null);
  const given = pick(facts.attributes, names.givenName)[0];
  const surname = pick(facts.attributes, names.surname)[0];
  const joined = [given, surname].filter(Boolean).join(' ');
  const known = new Set([...names.email, ...names.name, ...names.givenName, ...names.surname, ...names.groups]);
  return {
    name_id: facts.nameId,
    email,
    name: pick(facts.attributes, names.name)[0] ?? (joined || null),
    groups: pick(facts.attributes, names.groups),
    other: Object.fromEntries(Object.entries(facts.attributes).filter(([k]) => !known.has(k.toLowerCase()))),
  };
}

/** The email a response signs in, or the §8 code of why there is none. */
export function emailOf(facts: ResponseFacts, idpType: IdpType = 'generic_saml'): string {
  const identity = identityOf(facts, idpType);
  if (!facts.nameId && Object.keys(facts.attributes).length === 0)
    throw new SamlRefused('email', 'the assertion carries no NameID and no attributes', '45037');
  if (!identity.email) {
    if (pick(facts.attributes, attributeNames(idpType).email).length === 0 && !facts.nameId?.includes('@'))
      throw new SamlRefused('email', 'no email in the NameID or the attributes', '45031');
  }
  if (!identity.email || !EMAIL.test(identity.email))
    throw new SamlRefused('email', 'the email the IdP sent is not valid', '45002');
  return identity.email;
}
