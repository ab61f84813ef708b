// The admin API's answers (docs/configurator.md "Admin API"): what the configurator reads and sends.
import type { AppConfig } from '../../common/app-config.ts';
export type { WebhookDelivery, WebhookEndpoint } from '../../common/webhooks.ts';
export type { AuditLogEntry } from '../../common/app-log.ts';

export interface AppSummary {
  id: string;
  name: string;
  /** 0 = never published through the admin API. */
  publishedVersion: number;
  hasDraft: boolean;
  createdAt: string;
}

export interface Draft {
  config: AppConfig;
  baseVersion: number;
  updatedAt: string;
  updatedBy: string;
}

export interface AppDetail {
  app: AppSummary;
  live: AppConfig;
  draft: Draft | null;
  apiKeyCreatedAt: string | null;
  clientSecretCreatedAt: string | null;
}

/** One of an app's API keys as the admin API lists it (never the key itself). */
export interface ApiKeySummary {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface VersionSummary {
  version: number;
  author: string;
  note: string | null;
  createdAt: string;
  live: boolean;
}

export interface CreatedApp {
  app: AppSummary;
  /** Shown once: the server keeps only its hash. */
  apiKey: string;
}

export interface Workspace {
  id: string;
  name: string;
}

/** One difference between the draft and the live version; never carries a secret's value. */
export type Change =
  | { kind: 'enabled' | 'disabled'; path: string }
  | { kind: 'changed'; path: string; from?: unknown; to?: unknown }
  | { kind: 'translations'; language: string; count: number }
  | { kind: 'list'; path: string; added: number; removed: number; changed: number }
  | { kind: 'secret'; path: string };

export { LOGO_MAX_BYTES, LOGO_TYPES } from '../../common/logos.ts';
export const CUSTOM_CSS_MAX_LENGTH = 50_000;
export const PUBLISH_NOTE_MAX_LENGTH = 500;

export interface AuditLogFilter {
  type: string;
  person: string;
  offset: number;
  limit: number;
}

export interface WebhookEndpointInput {
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
}
