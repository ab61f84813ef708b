// The configurator listens only to the runtime in its own preview frame, on its own origin, with the tag.
import { describe, expect, it } from 'vitest';
import { previewUrl, runtimeSignal } from '../../../configurator/editor/preview-protocol.ts';
import { PREVIEW_TAG } from '../../../src/preview/protocol.ts';

describe('preview protocol, configurator side', () => {
  const origin = 'http://localhost:8080';
  const frame = {} as Window;
  const message = (data: unknown, source: unknown = frame, from = origin) =>
    new MessageEvent('message', { data, origin: from, source: source as Window });

  it('hears ready and applied from the preview frame', () => {
    expect(runtimeSignal(message({ tag: PREVIEW_TAG, type: 'ready' }), frame, origin)).toBe('ready');
    expect(runtimeSignal(message({ tag: PREVIEW_TAG, type: 'applied' }), frame, origin)).toBe('applied');
  });

  it('ignores other windows, other origins, untagged and unknown messages', () => {
    expect(runtimeSignal(message({ tag: PREVIEW_TAG, type: 'ready' }, {}), frame, origin)).toBeNull();
    expect(runtimeSignal(message({ tag: PREVIEW_TAG, type: 'ready' }, frame, 'http://evil.test'), frame, origin)).toBeNull();
    expect(runtimeSignal(message({ type: 'ready' }), frame, origin)).toBeNull();
    expect(runtimeSignal(message('ready'), frame, origin)).toBeNull();
    expect(runtimeSignal(message({ tag: PREVIEW_TAG, type: 'config' }), frame, origin)).toBeNull();
    expect(runtimeSignal(message({ tag: PREVIEW_TAG, type: 'ready' }), null, origin)).toBeNull();
  });

  it('opens the app login in preview mode', () => {
    expect(previewUrl('http://localhost:8080/', 'app 1')).toBe('http://localhost:8080/auth/login?appId=app+1&preview=1');
  });
});
