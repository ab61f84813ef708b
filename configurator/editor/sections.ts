// The editor's sections, in navigation order; each is a route under /apps/:appId, loaded when it is
// first opened, so the console's first load carries none of them.
import type { ComponentType } from 'react';

export interface EditorSection {
  path: string;
  /** Translation key of its navigation label and heading. */
  label: string;
  load(): Promise<ComponentType>;
}

export const EDITOR_SECTIONS = [
  { path: 'sign-in', label: 'sections.signIn', load: () => import('./sections/SignInSection.tsx').then((module) => module.SignInSection) },
  { path: 'client', label: 'sections.client', load: () => import('./sections/ClientSection.tsx').then((module) => module.ClientSection) },
  {
    path: 'branding',
    label: 'sections.branding',
    load: () => import('./sections/BrandingSection.tsx').then((module) => module.BrandingSection),
  },
  {
    path: 'signup-fields',
    label: 'sections.signupFields',
    load: () => import('./sections/SignupFieldsSection.tsx').then((module) => module.SignupFieldsSection),
  },
  { path: 'plans', label: 'sections.plans', load: () => import('./sections/PlansSection.tsx').then((module) => module.PlansSection) },
  {
    path: 'translations',
    label: 'sections.translations',
    load: () => import('./sections/TranslationsSection.tsx').then((module) => module.TranslationsSection),
  },
  {
    path: 'versions',
    label: 'sections.versions',
    load: () => import('./sections/VersionsSection.tsx').then((module) => module.VersionsSection),
  },
  { path: 'api-key', label: 'sections.apiKey', load: () => import('./sections/ApiKeySection.tsx').then((module) => module.ApiKeySection) },
  {
    path: 'webhooks',
    label: 'webhooks.title',
    load: () => import('./sections/WebhooksSection.tsx').then((module) => module.WebhooksSection),
  },
  {
    path: 'audit-log',
    label: 'sections.auditLog',
    load: () => import('./sections/AuditLogSection.tsx').then((module) => module.AuditLogSection),
  },
] as const satisfies readonly EditorSection[];
