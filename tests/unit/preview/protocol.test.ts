// The preview's message guard: only the direct parent window, on the runtime's own origin, with the
// preview tag, and only well-formed messages.
import { describe, expect, it } from 'vitest';
import { acceptedMessage, PREVIEW_TAG, type PreviewWindow } from '../../../src/preview/protocol.ts';

const ORIGIN = 'http://ui.foyer.test';
const parent = { name: 'configurator' };
const framed: PreviewWindow = { parent, location: { origin: ORIGIN } };

const config = { tag: PREVIEW_TAG, type: 'config', config: { name: 'Draft app', redirectUris: [] } };

describe('acceptedMessage', () => {
  it('accepts a tagged config, screen and language message from the parent on the same origin', () => {
    expect(acceptedMessage({ source: parent, origin: ORIGIN, data: config }, framed)).toEqual({
      type: 'config',
      config: { name: 'Draft app', redirectUris: [] },
    });
    expect(
      acceptedMessage({ source: parent, origin: ORIGIN, data: { tag: PREVIEW_TAG, type: 'screen', screen: 'login-password' } }, framed),
    ).toEqual({
      type: 'screen',
      screen: 'login-password',
    });
    expect(
      acceptedMessage({ source: parent, origin: ORIGIN, data: { tag: PREVIEW_TAG, type: 'language', language: 'pt-BR' } }, framed),
    ).toEqual({
      type: 'language',
      language: 'pt-BR',
    });
  });

  it('ignores any window but the parent: a popup, another frame, the window itself', () => {
    const popup = { name: 'popup' };
    expect(acceptedMessage({ source: popup, origin: ORIGIN, data: config }, framed)).toBeUndefined();
    expect(acceptedMessage({ source: framed, origin: ORIGIN, data: config }, framed)).toBeUndefined();
    expect(acceptedMessage({ source: null, origin: ORIGIN, data: config }, framed)).toBeUndefined();
  });

  it('ignores a window that is not framed, even for its own messages', () => {
    const top: { parent: unknown; location: { origin: string } } = { parent: undefined, location: { origin: ORIGIN } };
    top.parent = top;
    expect(acceptedMessage({ source: top, origin: ORIGIN, data: config }, top)).toBeUndefined();
  });

  it('ignores the parent when the message comes from another origin', () => {
    expect(acceptedMessage({ source: parent, origin: 'http://api.foyer.test', data: config }, framed)).toBeUndefined();
    expect(acceptedMessage({ source: parent, origin: 'null', data: config }, framed)).toBeUndefined();
  });

  it('ignores messages without the tag or with another one', () => {
    const { tag: _tag, ...untagged } = config;
    expect(acceptedMessage({ source: parent, origin: ORIGIN, data: untagged }, framed)).toBeUndefined();
    expect(acceptedMessage({ source: parent, origin: ORIGIN, data: { ...config, tag: 'other' } }, framed)).toBeUndefined();
    expect(acceptedMessage({ source: parent, origin: ORIGIN, data: JSON.stringify(config) }, framed)).toBeUndefined();
  });

  it('ignores malformed messages: unknown type, screen or language, a config that is not an object', () => {
    const send = (data: Record<string, unknown>) =>
      acceptedMessage({ source: parent, origin: ORIGIN, data: { tag: PREVIEW_TAG, ...data } }, framed);
    expect(send({ type: 'eval', code: '1' })).toBeUndefined();
    expect(send({ type: 'screen', screen: 'admin' })).toBeUndefined();
    expect(send({ type: 'language', language: 'en"><script>' })).toBeUndefined();
    expect(send({ type: 'config', config: 'name' })).toBeUndefined();
    expect(send({ type: 'config', config: [] })).toBeUndefined();
  });
});
