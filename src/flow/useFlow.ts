// React binding of FlowRunner: one runner per mounted flow screen, state through useSyncExternalStore.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { FlowRunner, type FlowRunnerOptions, type FlowState } from './engine.ts';

export function useFlow(options: FlowRunnerOptions): { runner: FlowRunner; state: FlowState } {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [runner] = useState(
    () =>
      new FlowRunner({
        flow: options.flow,
        environment: () => optionsRef.current.environment(),
        runAction: (name, input) => optionsRef.current.runAction(name, input),
        navigate: (path, navigation) => optionsRef.current.navigate(path, navigation),
      }),
  );
  const state = useSyncExternalStore(runner.subscribe, runner.getState, runner.getState);
  useEffect(() => {
    void runner.start();
  }, [runner]);
  return { runner, state };
}
