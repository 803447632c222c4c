type XmlParser = (typeof import('@xmldom/xmldom'))['DOMParser'];

/**
 * The root element of `xml`, or undefined when it is not well-formed XML
 * (an empty text, no root, a parser that throws). A document type
 * declaration is refused outright: SAML messages and metadata have none,
 * and its entities are the way to the classic XML expansion attacks and to
 * external fetches. Every SAML document the gateway reads comes through
 * here: the Response, its assertion, logout messages and metadata.
 */
export function xmlRootOf(DOMParser: XmlParser, xml: string): Element | undefined {
  if (/<!DOCTYPE/i.test(xml)) return undefined;
  const parse = { failed: false };
  try {
    // Typed as always present, but absent from a text with no element at all.
    const root = new DOMParser({
      errorHandler: {
        warning: () => undefined,
        error: () => (parse.failed = true),
        fatalError: () => (parse.failed = true),
      },
    }).parseFromString(xml, 'text/xml').documentElement as Element | null;
    return parse.failed || root === null ? undefined : root;
  } catch {
    return undefined;
  }
}

/**
 * The child elements of `parent` with the namespace `ns` and the local name
 * `name`, in document order: direct children only, so an element of the same
 * name nested deeper (a wrapped assertion, a descriptor inside another) is
 * never taken for one of them. Undefined `parent`: none.
 */
export function childrenOf(parent: Element | undefined, ns: string, name: string): Element[] {
  if (parent === undefined) return [];
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 1) {
      const element = node as Element;
      if (element.namespaceURI === ns && element.localName === name) found.push(element);
    }
  }
  return found;
}
