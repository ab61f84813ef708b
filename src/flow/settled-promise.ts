// React's use() reads a settled promise synchronously when the promise carries `status` and `value`
// (its thenable convention): marking the flows' and forms' loads so avoids a fallback flash, and a
// redraw during hydration, for what loaded before it is rendered (src/flow/flows.ts, src/flow/forms.ts).
export function markedForUse<T>(pending: Promise<T>): Promise<T> {
  const tracked = pending as Promise<T> & { status?: string; value?: T };
  pending.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    () => undefined,
  );
  return pending;
}
