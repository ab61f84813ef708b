// Operator settings, read once from the environment (docs/configuration.md).
import type { CustomFetch } from 'openid-client';
import { BlockList, isIP } from 'node:net';
import path from 'node:path';

export type FoyerEnv = 'development' | 'production';

export interface ServerConfig {
  env: FoyerEnv;
  dataDir: string;
  /** PostgreSQL connection string; without it Foyer uses embedded PGlite in dataDir. */
  databaseUrl?: string;
  ports: { auth: number; api: number; ui: number };
  /** The address the listeners bind (FOYER_HOST); loopback unless production or FOYER_ALLOW_DEV_ON_NETWORK=1. */
  host: string;
  /** Public origins as browsers see them (behind a proxy they differ from the listeners). */
  urls: { auth: string; api: string; ui: string };
  /** Signs the session cookies; must be set in production. */
  secret: string;
  /** Secrets FOYER_SECRET replaced (FOYER_PREVIOUS_SECRETS): they still open the signing key sealed under them. */
  previousSecrets: string[];
  logLevel: string;
  /** Proxy addresses whose X-Forwarded-For is believed (client IPs feed the login limits); none by default. */
  trustProxy: string[];
  /** Where the hosted UI's built files live. */
  uiDist: string;
  /** `npm run dev` (FOYER_UI_DEV=1): the hosted UI comes from Vite's dev server, with hot reload, not from uiDist. */
  uiDev: boolean;
  /** The flows and forms the hosted UI was built from (FOYER_FLOWS_DIR, FOYER_FORMS_DIR): the server checks collected values with them. */
  flowsDir: string;
  formsDir: string;
  /** SMTP server for outgoing mail (smtp://user:pass@host:port, smtps://...); without it mail goes to the outbox. */
  smtpUrl?: string;
  /** The From address of every mail. */
  mailFrom: string;
  /** How long a password reset link works (FOYER_RESET_TOKEN_TTL, seconds). */
  resetTokenTtlSeconds: number;
  /** How long a shutdown waits for answers in flight before it ends their connections. */
  shutdownGraceMs: number;
  /**
   * The development identity provider (server/dev-idp): its port and the URL browsers and Foyer reach
   * it at. Started outside production only; it stands in for every social provider without credentials.
   */
  devIdp: { port: number; url: string };
  /**
   * The DNS servers enterprise domain verification asks for TXT records (FOYER_DNS_SERVERS, `host` or
   * `host:port`, comma-separated); empty, the system's resolvers.
   */
  dnsServers: string[];
  /**
   * How Foyer reaches the social providers' own hosts (openid-client's customFetch); absent, the
   * global fetch. Never set from the environment: tests route a provider's real addresses
   * (https://login.microsoftonline.com, https://appleid.apple.com) to a local stand-in with it.
   */
  providerFetch?: CustomFetch;
  /** The webhook worker's timings (server/webhooks/worker.ts), all in milliseconds. */
  webhooks: WebhookTimings;
}

export interface WebhookTimings {
  /** How often the worker looks for due deliveries (FOYER_WEBHOOK_POLL_MS). */
  pollIntervalMs: number;
  /** The first retry's delay, doubled at each further failure, with jitter (FOYER_WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** How long failures are retried before a delivery is marked failed (FOYER_WEBHOOK_RETRY_FOR_MS). */
  retryForMs: number;
  /** How long one POST may take (FOYER_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
}

export const DEFAULT_SECRET = 'foyer-development-secret-change-me';

function port(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new Error(`Invalid port: ${value}`);
  return parsed;
}

const NODE_ENVS = ['production', 'development', 'test'];

/**
 * FOYER_ENV, or NODE_ENV=production when it is unset. Any other value of either is refused rather than
 * read as development: a typo (`prod`, `Production`) must not switch on the demo users, the open
 * mailbox and the default secret. `test` runs like development.
 */
function modeOf(env: NodeJS.ProcessEnv): FoyerEnv {
  if (env.NODE_ENV && !NODE_ENVS.includes(env.NODE_ENV)) {
    throw new Error(`Invalid NODE_ENV: ${env.NODE_ENV} (use production, development or test, or leave it unset)`);
  }
  const named = env.FOYER_ENV;
  if (named === undefined || named === '') return env.NODE_ENV === 'production' ? 'production' : 'development';
  if (named !== 'development' && named !== 'test' && named !== 'production') {
    throw new Error(`Invalid FOYER_ENV: ${named} (use development, test or production)`);
  }
  if (named !== 'production' && env.NODE_ENV === 'production') {
    throw new Error(`FOYER_ENV=${named} contradicts NODE_ENV=production; set FOYER_ENV=production or unset one of them`);
  }
  return named === 'production' ? 'production' : 'development';
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Reachable from this machine only: localhost, 127.0.0.0/8 or ::1 (IPv4-mapped ones included). */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * FOYER_HOST, 127.0.0.1 by default. Development (the demo users and their published passwords, the
 * open mailbox, the public default secret) is for this machine: on another address it is refused
 * unless the operator says it is meant (FOYER_ALLOW_DEV_ON_NETWORK=1).
 */
function hostOf(env: NodeJS.ProcessEnv, mode: FoyerEnv): string {
  const host = env.FOYER_HOST || '127.0.0.1';
  if (mode === 'development' && !isLoopback(host) && env.FOYER_ALLOW_DEV_ON_NETWORK !== '1') {
    throw new Error(
      `FOYER_HOST=${host} is not a loopback address: development (the demo users, the open mailbox, the default secret) stays on this machine; set FOYER_ALLOW_DEV_ON_NETWORK=1 to serve it to the network anyway`,
    );
  }
  return host;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const mode = modeOf(env);
  const ports = {
    auth: port(env.FOYER_AUTH_PORT, 3070),
    api: port(env.FOYER_API_PORT, 3000),
    ui: port(env.FOYER_UI_PORT, 8080),
  };
  const config: ServerConfig = {
    env: mode,
    dataDir: path.resolve(env.FOYER_DATA_DIR ?? '.foyer'),
    databaseUrl: env.DATABASE_URL || undefined,
    ports,
    host: hostOf(env, mode),
    urls: {
      auth: trimSlash(env.FOYER_PUBLIC_AUTH_URL ?? `http://localhost:${ports.auth}`),
      api: trimSlash(env.FOYER_PUBLIC_API_URL ?? `http://localhost:${ports.api}`),
      ui: trimSlash(env.FOYER_PUBLIC_UI_URL ?? `http://localhost:${ports.ui}`),
    },
    secret: env.FOYER_SECRET ?? DEFAULT_SECRET,
    previousSecrets: (env.FOYER_PREVIOUS_SECRETS ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL ?? (mode === 'production' ? 'info' : 'warn'),
    trustProxy: (env.FOYER_TRUST_PROXY ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    uiDist: path.resolve(env.FOYER_UI_DIST ?? 'dist/ui'),
    uiDev: env.FOYER_UI_DEV === '1',
    flowsDir: path.resolve(env.FOYER_FLOWS_DIR || 'flows'),
    formsDir: path.resolve(env.FOYER_FORMS_DIR || 'schema/forms'),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.FOYER_MAIL_FROM || 'Foyer <no-reply@localhost>',
    resetTokenTtlSeconds: positiveSeconds('FOYER_RESET_TOKEN_TTL', env.FOYER_RESET_TOKEN_TTL, 60 * 60),
    shutdownGraceMs: positiveSeconds('FOYER_SHUTDOWN_GRACE', env.FOYER_SHUTDOWN_GRACE, 10) * 1000,
    devIdp: devIdpOf(env),
    dnsServers: (env.FOYER_DNS_SERVERS ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
    webhooks: {
      pollIntervalMs: positiveMs('FOYER_WEBHOOK_POLL_MS', env.FOYER_WEBHOOK_POLL_MS, 2000),
      retryBaseMs: positiveMs('FOYER_WEBHOOK_RETRY_BASE_MS', env.FOYER_WEBHOOK_RETRY_BASE_MS, 30_000),
      retryForMs: positiveMs('FOYER_WEBHOOK_RETRY_FOR_MS', env.FOYER_WEBHOOK_RETRY_FOR_MS, 24 * 60 * 60_000),
      timeoutMs: positiveMs('FOYER_WEBHOOK_TIMEOUT_MS', env.FOYER_WEBHOOK_TIMEOUT_MS, 10_000),
    },
  };
  if (config.env === 'production' && (config.secret === DEFAULT_SECRET || config.secret.length < 32)) {
    throw new Error('FOYER_ENV=production needs FOYER_SECRET set to a random value of at least 32 characters');
  }
  if (config.env === 'production' && config.uiDev) throw new Error('FOYER_UI_DEV is for development: production serves the built UI');
  return config;
}

function devIdpOf(env: NodeJS.ProcessEnv): ServerConfig['devIdp'] {
  const devPort = port(env.FOYER_DEV_IDP_PORT, 3071);
  return { port: devPort, url: trimSlash(env.FOYER_DEV_IDP_URL || `http://localhost:${devPort}`) };
}

function smtpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const protocol = URL.canParse(value) ? new URL(value).protocol : '';
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new Error('Invalid SMTP_URL: use smtp://host:port or smtps://host:port');
  return value;
}

function positiveSeconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`Invalid ${name}: ${value} (a whole number of seconds)`);
  return parsed;
}

function positiveMs(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`Invalid ${name}: ${value} (a whole number of milliseconds)`);
  return parsed;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
