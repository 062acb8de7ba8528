// The single-file lesson's styles: each stylesheet a module imports is put in the page when that
// module runs (web/build/vite-plugin-offline.js turns `import './x.css'` into a call of addStyle),
// so a page gets its own styles, in the order the hosted page has them, and no other page's.

/** @param {string} css */
export function addStyle(css) {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
}
