// The flows bundled by build/flowsPlugin.ts.
declare module 'virtual:foyer-flows' {
  const flows: import('./flows.ts').BundledFlow[];
  export default flows;
}
