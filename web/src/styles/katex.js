// KaTeX's stylesheet and fonts for the lesson's math. A page module imports this file once
// (`import './styles/katex.js';`); Vite bundles the CSS and copies the fonts it names into the
// build, so the math renders without loading anything from outside the page's origin.
import 'katex/dist/katex.min.css';
