// Vite plugin: who may show the lesson's pages in a frame, as the lesson's own servers say it
// (the dev server of `npm start` and the preview server the browser tests use). The embed page,
// which is made to be framed, may be framed by any site; every other page only by the lesson
// itself (the speaker view frames the deck). Only a response header can say this: the
// frame-ancestors directive is ignored in a <meta> policy. The header carries frame-ancestors and
// nothing else, because a browser applies it on top of the page's own <meta> policy (both must
// allow a load) and the page's policy already says what it may load.
//
// No X-Frame-Options: every browser that can run the lesson (ES2022 modules, WebAssembly) obeys
// frame-ancestors, which overrides X-Frame-Options wherever both are sent, and X-Frame-Options has
// no way to say "any site" for the embed page; one header keeps one rule.
//
// The header goes on every response, not only on pages: a browser reads frame-ancestors only
// from a document it frames, so it changes nothing for a script or a picture, and it also covers
// whatever a server answers in place of a page (the directory index, the dev server's fallback).

/** The pages any site may frame, by file name (with and without .html). */
const EMBEDDABLE = new Set(['embed.html', 'embed']);

/**
 * The Content-Security-Policy header for a request's path.
 * @param {string} url the request's path and query, e.g. '/embed.html?figure=why-scale'
 * @returns {string}
 */
export function framePolicy(url) {
  let name = '';
  try {
    name = decodeURIComponent(new URL(url, 'http://localhost').pathname.split('/').pop() ?? '');
  } catch {
    // A malformed escape names no page of the lesson: it gets the strict rule.
  }
  return EMBEDDABLE.has(name) ? 'frame-ancestors *' : "frame-ancestors 'self'";
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {() => void} next
 */
function addHeader(req, res, next) {
  res.setHeader('Content-Security-Policy', framePolicy(req.url ?? '/'));
  next();
}

/** @returns {import('vite').Plugin} */
export default function framePolicyPlugin() {
  return {
    name: 'attention-lab:frame-policy',
    // Added before Vite's own middleware, so the header is set whoever answers the request.
    configureServer(server) {
      server.middlewares.use(addHeader);
    },
    configurePreviewServer(server) {
      server.middlewares.use(addHeader);
    },
  };
}
