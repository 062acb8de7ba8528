// The article's prose brings its own headings. Inside a section whose heading is an h2, they are
// moved so the highest of them becomes an h3 and the rest keep their steps below it: the outline
// stays in order whatever level the prose was written at.

/**
 * Renumbers the headings under `root` so the highest becomes `top`.
 * @param {HTMLElement} root
 * @param {number} [top] the level the highest heading should have
 */
export function nestHeadings(root, top = 3) {
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')];
  if (headings.length === 0) return;
  const shift = top - Math.min(...headings.map((heading) => Number(heading.tagName[1])));
  if (shift === 0) return;
  for (const heading of headings) {
    const level = Math.max(1, Math.min(6, Number(heading.tagName[1]) + shift));
    const renamed = root.ownerDocument.createElement(`h${level}`);
    for (const { name, value } of heading.attributes) renamed.setAttribute(name, value);
    renamed.append(...heading.childNodes);
    heading.replaceWith(renamed);
  }
}
