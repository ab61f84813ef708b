// node-saml's parts saml.ts uses, for it to load on first use (import('./node-saml.ts')). node-saml is
// a CommonJS package: imported statically, its named exports reach ES modules both under Node and in
// the production bundle (scripts/build-server.ts), whereas esbuild gives a CommonJS package imported
// with import() its own chunk that exports module.exports as `default` only.
export { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
