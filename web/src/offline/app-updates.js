// The single-file lesson has no service worker (a file:// page cannot register one) and nothing
// to update: it stands in for web/src/app-updates.js.

/** @param {{ doc?: Document, after?: Promise<unknown> }} [_options] */
export function offerUpdates(_options) {}
