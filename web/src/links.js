// Where the lesson's pages live, relative to each other: the deck, the article, the practice page,
// the list of lessons and the page that shows one figure for embedding sit side by side in one
// folder.

export const DECK_URL = 'index.html';
export const ARTICLE_URL = 'article.html';
export const PRACTICE_URL = 'practice.html';
export const LESSONS_URL = 'lessons.html';
export const EMBED_URL = 'embed.html';

/**
 * The deck, opened at one slide.
 * @param {string} id a slide id
 * @returns {string}
 */
export function slideHref(id) {
  return `${DECK_URL}#/${encodeURIComponent(id)}`;
}

/**
 * The article's section for a slide, remembering the slide so the article can lead back to it.
 * @param {string} id a slide id
 * @returns {string}
 */
export function articleHref(id) {
  const key = encodeURIComponent(id);
  return `${ARTICLE_URL}?from=${key}#${key}`;
}
