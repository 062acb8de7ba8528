// Registers every widget, so a page (or a test) that imports this module can create any widget a
// slide names. Nothing here touches the DOM until a widget is mounted. The figure parts several
// widgets share come first, after the page's own styles and before each widget's.
import './shared/figure.css';
import './shared/german.css';
import './heatmap/index.js';
import './knowledge-check/index.js';
import './why-scale/index.js';
import './multi-head/index.js';
import './position/index.js';
import './cross-attention/index.js';
import './weighted-retrieval/index.js';
import './bottleneck/index.js';
import './attention-steps/index.js';
import './self-attention-pair/index.js';
import './query-key-value/index.js';
import './training/index.js';
import './training-speed/index.js';
import './translation/index.js';
import './transformer/index.js';
import './language-model/index.js';

export { createWidget, widgetNames } from './shared/registry.js';
