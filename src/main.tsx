// The runtime page's entry. It brings Foyer's stylesheets (so the built page links them and the server
// inlines them in a drawn page, server/ui/first-paint.ts) and starts the runtime (./start.tsx). On a
// page the server drew, the runtime starts only once the browser has painted it: evaluating the
// runtime's modules takes 60–120 ms of the page's one thread (more on a slow device), which would
// otherwise run before the first paint and hold the drawn field's first keystrokes. Its modules are
// fetched then too, all at once: fetched with the page (modulepreload links), they held the first paint
// by 50–140 ms, more than the 5–120 ms they later cost hydration (docs/architecture.md). What is typed
// meanwhile survives hydration (e2e/first-paint.e2e.ts). A page the server did not draw
// (the configurator's preview frame, a stored session's screens) starts at once: it has nothing to show first.
import './theme/tokens.css';
import './theme/foyer.css';
import { takeHandoverSecrets } from './app/handover-address.ts';

// First of all: a handover's code and verifier leave the address (src/app/handover-address.ts).
takeHandoverSecrets(globalThis.location, globalThis.history);

/**
 * Resolves once a frame has been drawn: the second animation frame comes after the first one's frame
 * was produced (one alone is not enough: headless Chromium under load presented the page only after
 * the task queued from the first frame's callback).
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

// A hidden page paints nothing (and runs no animation frames) until it is shown.
const drawn = document.getElementById('root')?.hasChildNodes() === true && document.visibilityState === 'visible';
void (drawn ? afterNextPaint() : Promise.resolve()).then(() => import('./start.tsx'));
