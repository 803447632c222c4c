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
