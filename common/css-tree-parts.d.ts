// css-tree's parser and walker entry points (package.json "exports"), typed as the package's own:
// common/custom-css.ts loads only these, not the whole library with its syntax data.
declare module 'css-tree/parser' {
  const parse: typeof import('css-tree').parse;
  export default parse;
}
declare module 'css-tree/walker' {
  const walk: typeof import('css-tree').walk;
  export default walk;
}
