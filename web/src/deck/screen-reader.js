// The deck for screen-reader users. reveal.js marks the deck role="application", which takes a
// screen reader out of its reading mode for the whole deck; that role goes, and every keyboard
// shortcut stays (reveal listens on the document). reveal's own live region reads a new slide
// from its first line, the running header and the Figure menu included; in its place the deck
// says the slide's number and title first, then its text, and nothing of its header or figure.
// Focus follows: a control that has it keeps it; otherwise the new slide's heading becomes the
// point from which Tab and the reading cursor go on.
import { isSpeakerPreview } from './layout.js';

const BLOCKS = new Set([
  'P',
  'LI',
  'DIV',
  'UL',
  'OL',
  'H1',
  'H2',
  'H3',
  'BLOCKQUOTE',
  'TABLE',
  'TR',
]);

/**
 * The text a node reads as: what is hidden from assistive technology (aria-hidden, display none:
 * the math's drawn copy, whose MathML is read instead) left out, each block ended as a sentence.
 * @param {Node} node
 * @returns {string}
 */
export function readableText(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (!(node instanceof Element)) return '';
  if (node.getAttribute('aria-hidden') === 'true' || getComputedStyle(node).display === 'none') {
    return '';
  }
  let text = [...node.childNodes].map(readableText).join('');
  if (BLOCKS.has(node.tagName)) {
    text = text.replace(/\s+/g, ' ').trim();
    if (text && !/[.!?:;]$/.test(text)) text += '.';
    if (text) text = ` ${text} `;
  }
  return text;
}

/**
 * What the deck says when a slide is shown: "Slide 2 of 12: <title>. <its text>".
 * @param {import('reveal.js').default} deck
 * @param {Element} slide the slide's <section>
 * @returns {string}
 */
export function slideAnnouncement(deck, slide) {
  const slides = deck.getSlides();
  const number = slides.indexOf(/** @type {HTMLElement} */ (slide)) + 1;
  const title = slide.getAttribute('aria-label') ?? '';
  const parts = [`Slide ${number} of ${slides.length}: ${title}.`];
  const body = slide.querySelector('.slide-body');
  if (body) parts.push(readableText(body).replace(/\s+/g, ' ').trim());
  return parts.filter(Boolean).join(' ');
}

/**
 * An element where focus may stay when the slide changes: inside the new slide, or one of the
 * deck's own controls (the arrows), which the learner is pressing again and again.
 * @param {Element | null} active
 * @param {Element} slide
 * @returns {boolean}
 */
function keepsFocus(active, slide) {
  if (!active || active === document.body) return false;
  return slide.contains(active) || Boolean(active.closest('.reveal > .controls'));
}

/**
 * Prepares the deck's root before reveal starts: a stand-in for reveal's live region, which it
 * then fills unheard, and the deck's own.
 * @param {HTMLElement} root the `.reveal` element
 * @returns {HTMLElement} the deck's live region
 */
export function prepareScreenReader(root) {
  const silenced = document.createElement('div');
  silenced.className = 'aria-status';
  silenced.hidden = true;
  silenced.setAttribute('aria-hidden', 'true');
  const status = document.createElement('div');
  status.className = 'deck-status visually-hidden';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  status.setAttribute('aria-atomic', 'true');
  root.append(silenced, status);
  return status;
}

/**
 * Takes the application role off the deck once reveal has set it, announces each new slide in
 * the live region, and moves focus to its heading when focus would otherwise be lost.
 * @param {import('reveal.js').default} deck
 * @param {HTMLElement} status the live region from prepareScreenReader
 */
export function speakSlides(deck, status) {
  deck.on('ready', () => deck.getRevealElement()?.removeAttribute('role'));
  // The speaker view's previews follow the deck in frames of their own: focus and speech belong
  // to the speaker's window.
  if (isSpeakerPreview(window)) return;
  deck.on('slidechanged', (event) => {
    const slide = /** @type {HTMLElement} */ (event.currentSlide);
    status.textContent = slideAnnouncement(deck, slide);
    if (keepsFocus(document.activeElement, slide)) return;
    const heading = /** @type {HTMLElement | null} */ (slide.querySelector('.slide-heading'));
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  });
}
