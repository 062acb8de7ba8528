// The running chrome every slide carries: the course code on the left, the "Read article" link
// and the slide counter ("05 / 12") on the right (the title slide adds "All lessons"). It lives inside the slide, so it scales with
// the slide, shows in the overview and prints with each page.
import { LESSONS_URL, articleHref } from '../links.js';

/**
 * "05 / 12": the slide's place, zero-padded to the width of the total (at least two digits).
 * @param {number} index 0-based
 * @param {number} total
 * @returns {string}
 */
export function counterText(index, total) {
  const width = Math.max(2, String(total).length);
  const pad = (n) => String(n).padStart(width, '0');
  return `${pad(index + 1)} / ${pad(total)}`;
}

/**
 * The running header for one slide.
 * @param {Document} doc
 * @param {{ course: string, code: string }} lesson
 * @param {string} id the slide's id
 * @param {number} index 0-based
 * @param {number} total
 * @param {string | null} [linkKey] the lesson's key for links (none: the first lesson)
 * @returns {HTMLElement}
 */
export function buildChrome(doc, lesson, id, index, total, linkKey) {
  const link = (text, href) => {
    const a = doc.createElement('a');
    a.className = 'slide-chrome-link';
    a.href = href;
    a.textContent = text;
    return a;
  };
  const header = doc.createElement('header');
  header.className = 'slide-chrome';

  const code = doc.createElement('span');
  code.className = 'slide-code';
  code.textContent = `${lesson.course} \u00b7 ${lesson.code}`;

  const end = doc.createElement('span');
  end.className = 'slide-chrome-end';
  if (index === 0) end.append(link('All lessons', LESSONS_URL));
  end.append(link('Read article', articleHref(id, linkKey)));
  const counter = doc.createElement('span');
  counter.className = 'slide-counter';
  counter.textContent = counterText(index, total);
  end.append(counter);

  header.append(code, end);
  return header;
}
