// Drawing only what changed. Each drawing of the table makes its parts again (table.js); a part
// marked steady() that is equal to the one on the screen (the same elements, attributes and
// texts: isEqualNode) is left where it is, so the browser styles and lays out again only what
// changed, and what a person did there (a scroll, the focus, a sheet left open) simply stays.
// Only parts whose listeners read nothing of the frame are marked (the head, the seats, the
// table's own sheets); the board's parts and the dock are always put in anew.

const steadyParts = new WeakSet();

/** Mark `node` as a part that may be kept when an equal one is on the screen. */
export function steady(node) {
  if (node) steadyParts.add(node);
  return node;
}

/** Make the element children of `parent` be `parts` (nulls left out), in order: a part already
 * there stays (the very same element, or an equal steady one in its place), the others go in,
 * whatever else was there goes. What goes is taken out first, before anything new is in: taking
 * out the focused element (a button just pressed) while new parts wait to be styled would make
 * the browser style them there and then, and again once they are all in. */
export function redraw(parent, parts) {
  const wanted = parts.filter(Boolean);
  const old = Array.from(parent.children);
  wanted.forEach((part, i) => {
    const was = old[i];
    if (was && was !== part && steadyParts.has(part) && steadyParts.has(was) && was.isEqualNode(part)) {
      wanted[i] = was;
    }
  });
  const staying = new Set(wanted);
  for (const was of old) if (!staying.has(was)) was.remove();
  wanted.forEach((part, i) => {
    const at = parent.children[i] || null;
    if (at !== part) parent.insertBefore(part, at);
  });
}
