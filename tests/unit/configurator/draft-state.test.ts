// The editor's draft: local edits at once, server answers matched to the edit they carried.
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../../common/app-config.ts';
import {
  draftReducer,
  draftStatus,
  initialDraftState,
  issuesByPath,
  previewConfig,
  type DraftState,
} from '../../../configurator/editor/draft-state.ts';
import { setIn } from '../../../configurator/editor/config-path.ts';

const live: AppConfig = { name: 'Acme', redirectUris: ['https://acme.test/cb'], googleSsoEnabled: true };

function edit(state: DraftState, path: (string | number)[], value: unknown): DraftState {
  return draftReducer(state, { type: 'edit', update: (config) => setIn(config, path, value) });
}

describe('draft reducer', () => {
  it('starts from the live config with nothing to save', () => {
    const state = initialDraftState(live, false);
    expect(draftStatus(state)).toBe('live');
    expect(initialDraftState(live, true).hasDraft).toBe(true);
    expect(draftStatus(initialDraftState(live, true))).toBe('saved');
  });

  it('applies an edit at once and marks it unsaved', () => {
    const state = edit(initialDraftState(live, false), ['magicLinkEnabled'], true);
    expect(state.config.magicLinkEnabled).toBe(true);
    expect(state.revision).toBe(1);
    expect(draftStatus(state)).toBe('saving');
  });

  it('ignores an edit that changes nothing', () => {
    const start = initialDraftState(live, false);
    expect(draftReducer(start, { type: 'edit', update: (config) => config })).toBe(start);
  });

  it('is saved once the server took the newest edit', () => {
    let state = edit(initialDraftState(live, false), ['name'], 'Acme 2');
    state = draftReducer(state, { type: 'saved', revision: 1 });
    expect(draftStatus(state)).toBe('saved');
    expect(state.hasDraft).toBe(true);
  });

  it('stays unsaved when an older edit comes back saved after newer typing', () => {
    let state = edit(initialDraftState(live, false), ['name'], 'Acme 2');
    state = edit(state, ['name'], 'Acme 23');
    state = draftReducer(state, { type: 'saved', revision: 1 });
    expect(draftStatus(state)).toBe('saving');
    expect(state.config.name).toBe('Acme 23');
    state = draftReducer(state, { type: 'saved', revision: 2 });
    expect(draftStatus(state)).toBe('saved');
  });

  it('ignores a late answer for an edit older than what the server already holds', () => {
    let state = edit(edit(initialDraftState(live, false), ['name'], 'A'), ['name'], 'B');
    state = draftReducer(state, { type: 'saved', revision: 2 });
    const after = draftReducer(state, { type: 'saved', revision: 1 });
    expect(after).toBe(state);
  });

  it('shows a refusal of the current edit, and forgets it once a later edit is saved', () => {
    let state = edit(initialDraftState(live, false), ['branding', 'colors', 'primary'], 'red;}body{x:y');
    const failure = {
      code: 'VALIDATION_FAILED',
      message: 'Invalid',
      issues: [{ path: '/branding/colors/primary', message: 'must match pattern' }],
    };
    state = draftReducer(state, { type: 'saveFailed', revision: 1, failure });
    expect(draftStatus(state)).toBe('failed');
    expect(issuesByPath(state.failure)).toEqual({ '/branding/colors/primary': 'must match pattern' });

    state = edit(state, ['branding', 'colors', 'primary'], '#00aa77');
    expect(draftStatus(state)).toBe('saving');
    state = draftReducer(state, { type: 'saved', revision: 2 });
    expect(draftStatus(state)).toBe('saved');
    expect(state.failure).toBeNull();
  });

  it('does not blame the current edit for the refusal of an older one', () => {
    let state = edit(initialDraftState(live, false), ['name'], '');
    state = edit(state, ['name'], 'Fixed');
    const after = draftReducer(state, {
      type: 'saveFailed',
      revision: 1,
      failure: { code: 'VALIDATION_FAILED', message: 'x', issues: [] },
    });
    expect(after).toBe(state);
  });

  it('drops a typed client secret from memory once it is saved, keeping "set"', () => {
    let state = edit(initialDraftState(live, false), ['socialProviders', 'google', 'clientSecret'], 's3cret');
    expect(state.config.socialProviders?.google?.clientSecret).toBe('s3cret');
    state = draftReducer(state, { type: 'saved', revision: 1 });
    expect(state.config.socialProviders?.google).toEqual({ hasClientSecret: true });
  });

  it('never shows a secret to the preview', () => {
    const state = edit(initialDraftState(live, false), ['socialProviders', 'github', 'clientSecret'], 'abc');
    expect(JSON.stringify(previewConfig(state.config))).not.toContain('abc');
  });

  it('takes a loaded document (restore, discard) as the server state', () => {
    let state = edit(initialDraftState(live, true), ['name'], 'Local');
    state = draftReducer(state, { type: 'load', config: { ...live, name: 'Restored' }, hasDraft: true });
    expect(state.config.name).toBe('Restored');
    expect(draftStatus(state)).toBe('saved');
    // An answer for the edit made before the load does not count as a newer save.
    expect(draftReducer(state, { type: 'saved', revision: 1 })).toBe(state);
    state = draftReducer(state, { type: 'published' });
    expect(draftStatus(state)).toBe('live');
  });
});

describe('setIn', () => {
  it('removes emptied values and the objects they leave empty', () => {
    const config: AppConfig = { ...live, branding: { colors: { primary: '#000' } } };
    expect(setIn(config, ['branding', 'colors', 'primary'], '')).toEqual(live);
  });

  it('writes into arrays by index without touching the original', () => {
    const next = setIn(live, ['redirectUris', 0], 'https://other.test/cb');
    expect(next.redirectUris).toEqual(['https://other.test/cb']);
    expect(live.redirectUris).toEqual(['https://acme.test/cb']);
  });
});
