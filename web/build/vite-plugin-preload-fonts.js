// Vite plugin: every page asks for its main text face from its head, so the font downloads
// beside the page's script instead of after the stylesheet has been read, and text (which waits
// for it: font-display block in fonts.css) appears at once in its final shape. Only the Latin
// files of the sans, upright and italic: the other faces are small parts of a page and swap in.

/** The built files to preload, by the start of their names (Vite adds a hash). */
export const PRELOADED_FONTS = [
  /^assets\/atkinson-hyperlegible-next-latin-wght-normal-[\w-]+\.woff2$/,
  /^assets\/atkinson-hyperlegible-next-latin-wght-italic-[\w-]+\.woff2$/,
];

/**
 * The preload tags for the given built font files.
 * @param {string[]} files e.g. ['assets/atkinson-hyperlegible-next-latin-wght-normal-1a2b.woff2']
 * @returns {import('vite').HtmlTagDescriptor[]}
 */
export function fontTags(files) {
  // Fonts are always fetched in cors mode: without `crossorigin` the preload would not be used.
  return files.map((href) => ({
    tag: 'link',
    attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: true, href: `./${href}` },
    injectTo: 'head',
  }));
}

/** @returns {import('vite').Plugin} */
export default function preloadFontsPlugin() {
  return {
    name: 'attention-lab-preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const names = Object.keys(ctx.bundle);
        const files = PRELOADED_FONTS.map((pattern) => names.find((name) => pattern.test(name)));
        const missing = PRELOADED_FONTS.filter((_, k) => !files[k]);
        if (missing.length > 0) {
          this.error?.(`preload-fonts: no built file matches ${missing.join(', ')}`);
        }
        return { html, tags: fontTags(/** @type {string[]} */ (files.filter(Boolean))) };
      },
    },
  };
}
