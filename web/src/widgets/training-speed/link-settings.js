// The timing figure takes nothing from a link: it has no settings, and its run is the page's own.
export const SETTINGS = {};
