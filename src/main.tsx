// The runtime page's entry. It brings Foyer's stylesheets (so the built page links them and the server
// inlines them in a drawn page, server/ui/first-paint.ts) and starts the runtime (./start.tsx). On a
// page the server drew, the runtime starts only once the browser has painted it: evaluating the
// runtime's modules takes about 100 ms of the page's one thread, which would otherwise run before the
// first paint whenever the scripts arrive before it. The runtime's modules are fetched with the page
// all the same (modulepreload links, vite.config.ts).
import './theme/tokens.css';
import './theme/foyer.css';

/**
 * Resolves once a frame has been drawn: the second animation frame comes after the first one's frame
 * was produced (one alone is not enough: headless Chromium under load presented the page only after
 * the task queued from the first frame's callback).
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

// A hidden page paints nothing, and an undrawn one has nothing to show first.
const drawn = document.getElementById('root')?.hasChildNodes() === true && document.visibilityState === 'visible';
void (drawn ? afterNextPaint() : Promise.resolve()).then(() => import('./start.tsx'));
