// Just enough XML for the emulated server's answers: one root element of
// flat child elements holding text. No DTD, no entities beyond the five
// predefined and numeric ones, so nothing in a document can expand.

const entities = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return entities[name] ?? whole;
  });
}

export function escapeXml(text) {
  return String(text).replace(
    /[<>&"']/g,
    (char) => `&${Object.keys(entities).find((name) => entities[name] === char)};`,
  );
}

/** `<user><id>a</id></user>` -> `{ root: 'user', fields: { id: 'a' } }`; throws on anything else. */
export function readFlatXml(xml) {
  const body = xml.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>)?\s*/, '');
  if (/<!/.test(body)) throw new Error('the XML has a DOCTYPE, comment or CDATA section');
  const root = /^<([A-Za-z][\w.-]*)>([\s\S]*)<\/\1>\s*$/.exec(body);
  if (root === null) throw new Error('the XML is not one root element');
  const fields = Object.create(null);
  const inner = root[2].trim();
  const element = /<([A-Za-z][\w.-]*)>([^<]*)<\/\1>\s*/gy;
  let match;
  let end = 0;
  while ((match = element.exec(inner)) !== null) {
    fields[match[1]] = decode(match[2]);
    end = element.lastIndex;
  }
  if (end !== inner.length) throw new Error(`the XML element <${root[1]}> is not flat`);
  return { root: root[1], fields };
}
