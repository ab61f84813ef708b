// The editor's sections, in navigation order; each is a route under /apps/:appId.
import type { ComponentType } from 'react';
import { ApiKeySection } from './sections/ApiKeySection.tsx';
import { AuditLogSection } from './sections/AuditLogSection.tsx';
import { ClientSection } from './sections/ClientSection.tsx';
import { BrandingSection } from './sections/BrandingSection.tsx';
import { PlansSection } from './sections/PlansSection.tsx';
import { SignInSection } from './sections/SignInSection.tsx';
import { SignupFieldsSection } from './sections/SignupFieldsSection.tsx';
import { TranslationsSection } from './sections/TranslationsSection.tsx';
import { VersionsSection } from './sections/VersionsSection.tsx';

export interface EditorSection {
  path: string;
  /** Translation key of its navigation label and heading. */
  label: string;
  Component: ComponentType;
}

export const EDITOR_SECTIONS = [
  { path: 'sign-in', label: 'sections.signIn', Component: SignInSection },
  { path: 'client', label: 'sections.client', Component: ClientSection },
  { path: 'branding', label: 'sections.branding', Component: BrandingSection },
  { path: 'signup-fields', label: 'sections.signupFields', Component: SignupFieldsSection },
  { path: 'plans', label: 'sections.plans', Component: PlansSection },
  { path: 'translations', label: 'sections.translations', Component: TranslationsSection },
  { path: 'versions', label: 'sections.versions', Component: VersionsSection },
  { path: 'api-key', label: 'sections.apiKey', Component: ApiKeySection },
  { path: 'audit-log', label: 'sections.auditLog', Component: AuditLogSection },
] as const satisfies readonly EditorSection[];
