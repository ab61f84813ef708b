// React binding of FlowRunner: one runner per mounted flow screen, state through useSyncExternalStore.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { FlowRunner, type FlowRunnerOptions, type FlowState } from './engine.ts';

/** `resume`: the step the address names when the screen opens (FlowRunner.start). */
export function useFlow(options: FlowRunnerOptions & { resume?: string }): { runner: FlowRunner; state: FlowState } {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [runner] = useState(
    () =>
      new FlowRunner({
        flow: options.flow,
        environment: () => optionsRef.current.environment(),
        runAction: (name, input) => optionsRef.current.runAction(name, input),
        navigate: (path, navigation) => optionsRef.current.navigate(path, navigation),
        reportUnmapped: (report) => optionsRef.current.reportUnmapped?.(report),
      }),
  );
  const state = useSyncExternalStore(runner.subscribe, runner.getState, runner.getState);
  const resume = useRef(options.resume);
  useEffect(() => {
    void runner.start(resume.current);
  }, [runner]);
  return { runner, state };
}
