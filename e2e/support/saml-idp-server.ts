// A SAML IdP for browser tests: a small HTTP server whose sign-in page reads Foyer's AuthnRequest and
// answers it for one person, signed with the test IdP's own key (tests/server/support/saml-idp.ts), by
// a form that posts the response to Foyer's ACS.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../../server/notify/render.ts';
import { createTestIdp, readAuthnRequest, signedResponse, type TestIdp } from '../../tests/server/support/saml-idp.ts';

export interface SamlIdpServer {
  idp: TestIdp;
  /** The server's origin. */
  url: string;
  /** Where Foyer's connection sends people with the AuthnRequest. */
  ssoUrl: string;
  /** The audience the IdP signs for: Foyer's entity id for the connection, known once it is made. */
  audience: string;
  close(): Promise<void>;
}

/** The IdP `name` on a free local port, signing in `person` to whoever asks; its page's button names them. */
export async function startSamlIdpServer(
  name: string,
  person: { email: string; firstName: string; lastName: string },
): Promise<SamlIdpServer> {
  const idp = await createTestIdp(name);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', samlIdp.url);
    if (url.pathname !== '/sso' || !url.searchParams.get('SAMLRequest')) {
      response.writeHead(404).end();
      return;
    }
    const authn = readAuthnRequest(url.toString());
    const samlResponse = signedResponse(idp, { inResponseTo: authn.id, acsUrl: authn.acsUrl, audience: samlIdp.audience, ...person });
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Test IdP</title></head>
<body><main><h1>Test IdP</h1>
<form method="post" action="${escapeHtml(authn.acsUrl)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
<input type="hidden" name="RelayState" value="${escapeHtml(authn.relayState)}">
<button type="submit">Sign in as ${escapeHtml(`${person.firstName} ${person.lastName}`)}</button>
</form></main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const samlIdp: SamlIdpServer = {
    idp,
    url,
    ssoUrl: `${url}/sso`,
    audience: '',
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return samlIdp;
}
