// Registers every widget, so a page (or a test) that imports this module can create any widget a
// slide names. Nothing here touches the DOM until a widget is mounted.
import './heatmap.js';
import './knowledge-check.js';
import './why-scale.js';
import './multi-head.js';
import './position.js';
import './cross-attention.js';
import './weighted-retrieval.js';
import './bottleneck.js';
import './attention-steps.js';
import './self-attention-pair.js';
import './query-key-value.js';
import './training.js';
import './language-model/index.js';

export { createWidget, widgetNames } from './registry.js';
