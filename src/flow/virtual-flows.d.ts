// The flows bundled by build/flowsPlugin.ts.
declare module 'virtual:foyer-flows' {
  const flows: import('./types.ts').Flow[];
  export default flows;
}
