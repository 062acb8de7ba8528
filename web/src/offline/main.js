// The single-file lesson: one HTML file holds the deck, the article, the practice bank and the
// list of lessons (npm run build:offline). This script puts in the body of the page the address
// asks for (?page=, links.js), then runs that page's own script, as the hosted page would.
import pages from 'virtual:offline-pages';
import { pageOf } from './links.js';

const PAGE_SCRIPTS = {
  deck: () => import('../deck/main.js'),
  article: () => import('../article/main.js'),
  practice: () => import('../practice/main.js'),
  lessons: () => import('../lessons/main.js'),
};

const name = pageOf(location.search);
const page = pages[name];
document.title = page.title;
document.body.className = page.bodyClass;
document.body.innerHTML = page.body;
PAGE_SCRIPTS[name]();
