import { DOMParser } from '@xmldom/xmldom';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { documentDeeperThan, nestsDeeperThan } from './xml-depth.ts';

const nested = (depth: number) => `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;

test('counts elements, not comments, CDATA, instructions, attribute values or self-closing tags', () => {
  expect(nestsDeeperThan(nested(3), 3)).toBe(false);
  expect(nestsDeeperThan(nested(4), 3)).toBe(true);
  expect(nestsDeeperThan(`<?xml version="1.0"?><a><!-- <b><c><d> --><![CDATA[<b><c><d>]]><b x="<c>" y='/>'/><c/></a>`, 2)).toBe(
    false,
  );
  // A `/` inside a quoted value does not close the tag; a `>` inside one does not end it.
  expect(nestsDeeperThan(`<a><b x="/"><c y=">"></c></b></a>`, 2)).toBe(true);
  expect(nestsDeeperThan(`<a>${'<b/>'.repeat(10_000)}</a>`, 2)).toBe(false);
  expect(nestsDeeperThan(`<a>${'<b/>'.repeat(10_000)}</a>`, 1)).toBe(true);
  // An end tag that names another element closes nothing, as in the parser.
  expect(nestsDeeperThan(`<a>${'</x><a>'.repeat(5)}`, 5)).toBe(true);
  expect(nestsDeeperThan(`<a></a>`.repeat(10_000), 1)).toBe(false);
});

test('deep nesting is found in one pass, whatever its size', () => {
  const started = Date.now();
  expect(nestsDeeperThan(nested(200_000), 64)).toBe(true);
  expect(nestsDeeperThan(`<a>${'<b x="1"/>'.repeat(50_000)}</a>`, 64)).toBe(false);
  expect(Date.now() - started).toBeLessThan(2_000);
});

test('never counts fewer levels than the parser builds from text it accepts', () => {
  // Pieces of XML, well-formed or not, glued at random: whenever the parser reports no error, the
  // count found nothing deeper than the document it built.
  const piece = fc.constantFrom(
    '<a>',
    '</a>',
    '</A >',
    '<b x="1">',
    '</b>',
    '<c/>',
    '<c x/>',
    '<c x=1/>',
    '<d y="/">',
    '</d>',
    "<e z='>'>",
    '</e>',
    '<!-- <a> -->',
    '<![CDATA[<a>]]>',
    '<?pi <a>?>',
    'text',
    '<',
    '>',
    '"',
    "'",
    '/',
    '<!x>',
    '<f:g xmlns:f="urn:f">',
    '</f:g>',
  );
  let accepted = 0;
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(6), (pieces, max) => {
      const xml = `<r>${pieces.join('')}</r>`;
      let errors = 0;
      const count = () => void errors++;
      const doc = new DOMParser({ errorHandler: { warning: count, error: count, fatalError: count } }).parseFromString(
        xml,
        'text/xml',
      ) as unknown as Document;
      if (errors === 0) accepted++;
      if (errors === 0 && !nestsDeeperThan(xml, max)) expect(documentDeeperThan(doc, max)).toBe(false);
    }),
    { numRuns: 5_000, seed: 20261125 },
  );
  // Enough of the texts were accepted for the property to say something.
  expect(accepted).toBeGreaterThan(500);
});

test('the parsed document is measured without recursion', () => {
  const doc = new DOMParser().parseFromString(`<r>${nested(64)}</r>`, 'text/xml') as unknown as Document;
  expect(documentDeeperThan(doc, 65)).toBe(false);
  expect(documentDeeperThan(doc, 64)).toBe(true);
});
