// RJSF's step form as a chunk of its own (./RjsfStepForm.tsx), loaded with the first form that needs
// it (./StepBody.tsx), or ahead when the runtime hydrates a server-drawn one (src/start.tsx).
import { preloadable } from '../../../components/preloadable.ts';

export const RjsfStepForm = preloadable(() => import('./RjsfStepForm.tsx'));
