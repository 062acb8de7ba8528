// The table of contents: one entry per section, the one being read marked as current.

/**
 * Fills the list with a link to each section.
 * @param {HTMLOListElement} list
 * @param {HTMLElement[]} sections each with an id and a heading it is labelled by
 */
export function fillToc(list, sections) {
  const doc = list.ownerDocument;
  list.replaceChildren(
    ...sections.map((section, index) => {
      const item = doc.createElement('li');
      const link = doc.createElement('a');
      link.href = `#${section.id}`;
      const heading = doc.getElementById(section.getAttribute('aria-labelledby') ?? '');
      link.textContent = index === 0 ? 'Introduction' : (heading?.textContent ?? section.id);
      item.append(link);
      return item;
    }),
  );
}

/**
 * Marks the entry of the section nearest the top of the window with aria-current.
 * @param {HTMLOListElement} list
 * @param {HTMLElement[]} sections
 */
export function followReading(list, sections) {
  if (typeof IntersectionObserver !== 'function') return;
  const links = new Map(
    [...list.querySelectorAll('a')].map((a) => [a.getAttribute('href')?.slice(1), a]),
  );
  const visible = new Set();
  const mark = () => {
    const current = sections.find((section) => visible.has(section.id)) ?? null;
    for (const [id, link] of links) {
      if (id === current?.id) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) visible.add(entry.target.id);
        else visible.delete(entry.target.id);
      }
      mark();
    },
    { rootMargin: '0px 0px -60% 0px' },
  );
  sections.forEach((section) => observer.observe(section));
}
