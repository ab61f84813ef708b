// The editor's draft: the working copy of the config, edited locally at once and saved to the server
// in the background. Revisions number the edits, so a save answer is matched to the edit it carried
// and an answer for an older edit never overrides newer typing.
import { socialProviders, type AppConfig } from '../../common/app-config.ts';
import type { FieldIssue } from '../../src/http/errors.ts';

export interface SaveFailure {
  code: string;
  message: string;
  issues: FieldIssue[];
}

export interface DraftState {
  config: AppConfig;
  /** Bumped by every local edit. */
  revision: number;
  /** The newest revision the server holds. */
  savedRevision: number;
  /** The revision whose save the server refused, while it is still the current one. */
  failedRevision: number | null;
  failure: SaveFailure | null;
  /** The server holds a draft (saved edits that are not live). */
  hasDraft: boolean;
}

export type DraftAction =
  | { type: 'load'; config: AppConfig; hasDraft: boolean }
  | { type: 'edit'; update(config: AppConfig): AppConfig }
  | { type: 'saved'; revision: number }
  | { type: 'saveFailed'; revision: number; failure: SaveFailure }
  | { type: 'published' };

export type DraftStatus = 'live' | 'saved' | 'saving' | 'failed';

export function initialDraftState(config: AppConfig, hasDraft: boolean): DraftState {
  return { config, revision: 0, savedRevision: 0, failedRevision: null, failure: null, hasDraft };
}

/** After the server took the secrets: the values leave the browser's memory, only "set" remains. */
export function sealSecrets(config: AppConfig): AppConfig {
  if (!config.socialProviders) return config;
  let changed = false;
  const providers = { ...config.socialProviders };
  for (const provider of socialProviders) {
    const credentials = providers[provider];
    if (credentials?.clientSecret === undefined) continue;
    const { clientSecret, ...rest } = credentials;
    providers[provider] = { ...rest, hasClientSecret: rest.hasClientSecret || clientSecret.length > 0 };
    changed = true;
  }
  return changed ? { ...config, socialProviders: providers } : config;
}

export function draftReducer(state: DraftState, action: DraftAction): DraftState {
  switch (action.type) {
    case 'load':
      return { ...initialDraftState(action.config, action.hasDraft), revision: state.revision, savedRevision: state.revision };
    case 'edit': {
      const config = action.update(state.config);
      if (config === state.config) return state;
      return { ...state, config, revision: state.revision + 1 };
    }
    case 'saved': {
      if (action.revision <= state.savedRevision) return state;
      const current = action.revision === state.revision;
      return {
        ...state,
        savedRevision: action.revision,
        hasDraft: true,
        config: current ? sealSecrets(state.config) : state.config,
        failedRevision: current ? null : state.failedRevision,
        failure: current ? null : state.failure,
      };
    }
    case 'saveFailed':
      // A refusal of an older edit says nothing about the current one, which is already on its way.
      if (action.revision !== state.revision) return state;
      return { ...state, failedRevision: action.revision, failure: action.failure };
    case 'published':
      return { ...state, hasDraft: false };
  }
}

export function draftStatus(state: DraftState): DraftStatus {
  if (state.failedRevision === state.revision) return 'failed';
  if (state.revision !== state.savedRevision) return 'saving';
  return state.hasDraft ? 'saved' : 'live';
}

/** The message of each refused field, by JSON pointer (first one wins). */
export function issuesByPath(failure: SaveFailure | null): Record<string, string> {
  const byPath: Record<string, string> = {};
  for (const issue of failure?.issues ?? []) byPath[issue.path] ??= issue.message;
  return byPath;
}

/** What the preview may see: the draft without any secret a field still holds. */
export function previewConfig(config: AppConfig): AppConfig {
  return sealSecrets(config);
}
