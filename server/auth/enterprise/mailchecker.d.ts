// mailchecker ships its types beside its entry without naming them (package.json has no "types"):
// the CommonJS module's exports, as the package's own types.d.ts declares them.
declare module 'mailchecker' {
  const mailchecker: typeof import('mailchecker/types.d.ts');
  export default mailchecker;
}
