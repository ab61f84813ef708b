// What Foyer needs from a SAML IdP's metadata document (SAML 2.0 Metadata, section 2.4.3): its entity
// id, the sign-in address of its HTTP-Redirect binding (the one node-saml's AuthnRequest uses) and the
// certificates it signs with.
import { DOMParser } from '@xmldom/xmldom';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER bodies, as KeyInfo gives them. */
  certificates: string[];
}

/** The IdP's entity id, sign-in URL and signing certificates; undefined when the document has none of them. */
export function parseIdpMetadata(xml: string): IdpMetadata | undefined {
  let document: ReturnType<DOMParser['parseFromString']>;
  try {
    document = new DOMParser({ errorHandler: () => undefined }).parseFromString(xml, 'text/xml');
  } catch {
    return undefined;
  }
  const entity = document.getElementsByTagNameNS(MD, 'EntityDescriptor')[0];
  const idp = entity?.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  const entityId = entity?.getAttribute('entityID');
  if (!idp || !entityId) return undefined;
  const services = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService'));
  const ssoUrl = services.find((service) => service.getAttribute('Binding') === REDIRECT_BINDING)?.getAttribute('Location');
  if (!ssoUrl) return undefined;
  const certificates = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((key) => (key.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((key) => Array.from(key.getElementsByTagNameNS(DS, 'X509Certificate')))
    .map((node) => (node.textContent ?? '').replace(/\s+/g, ''))
    .filter(Boolean);
  return { entityId, ssoUrl, certificates };
}
