// A copy of the database gives away no secret that lets its holder act as Foyer: the token signing
// key is sealed under FOYER_SECRET (and opens again after the secret rotates, with the old one listed
// in FOYER_PREVIOUS_SECRETS), and in production the outbox keeps no mailed link or texted code.
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, startFoyer, type TestFoyer } from '../../server/testing.ts';
import { outbox, signingKeys } from '../../server/db/schema.ts';
import { loadSigningKeys } from '../../server/auth/signing-keys.ts';
import { secretId } from '../../server/crypto/seal.ts';
import { createNotifier } from '../../server/notify/service.ts';
import { Browser } from './oidc/browser.ts';
import { call, createMember } from './password/helpers.ts';

const SECRET_A = 'a'.repeat(40);
const SECRET_B = 'b'.repeat(40);
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

/** Every private member's value of `jwk`, none of which may appear in a stored row. */
const privateValues = (jwk: JWK) => PRIVATE_MEMBERS.map((member) => jwk[member] as string);

describe('the signing key at rest', () => {
  let foyer: TestFoyer;
  beforeAll(async () => {
    foyer = await startFoyer();
  });
  afterAll(() => foyer?.close());

  it('is stored sealed: the row holds the public half and no private member', async () => {
    const [key] = (await loadSigningKeys(foyer.db)).privateJwks;
    const rows = await foyer.db.select().from(signingKeys);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    for (const value of privateValues(key!)) expect(stored).not.toContain(value);
    expect(rows[0]!.privateJwk).toBeNull();
    expect(rows[0]!.sealedWith).toBe(secretId(foyer.config.secret));
    const discovery = (await (await fetch(`${foyer.urls.auth}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
    const published = (await (await fetch(discovery.jwks_uri)).json()) as { keys: JWK[] };
    expect(published.keys).toEqual([rows[0]!.publicJwk]);
  });
});

describe('sealing and rotation', () => {
  async function plaintextKey(): Promise<JWK & { kid: string }> {
    const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
    const jwk = await exportJWK(privateKey);
    return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };
  }

  it('seals a key stored in the clear before migration 0008 at the next start', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.delete(signingKeys);
      const jwk = await plaintextKey();
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk;
      await database.db.insert(signingKeys).values({ kid: jwk.kid, privateJwk: { ...jwk }, publicJwk });
      const loaded = await loadSigningKeys(database.db, { secret: SECRET_A, previousSecrets: [] });
      expect(loaded.privateJwks).toEqual([jwk]);
      const [row] = await database.db.select().from(signingKeys);
      expect(row!.privateJwk).toBeNull();
      for (const value of privateValues(jwk)) expect(JSON.stringify(row)).not.toContain(value);
    } finally {
      await database.close();
    }
  });

  it('opens a key sealed under a previous secret only when that secret is listed, then seals it under the new one', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.delete(signingKeys);
      const [original] = (await loadSigningKeys(database.db, { secret: SECRET_A, previousSecrets: [] })).privateJwks;

      await expect(loadSigningKeys(database.db, { secret: SECRET_B, previousSecrets: [] })).rejects.toThrow(/FOYER_PREVIOUS_SECRETS/);
      await expect(loadSigningKeys(database.db, { secret: SECRET_B, previousSecrets: ['c'.repeat(40)] })).rejects.toThrow(
        /FOYER_PREVIOUS_SECRETS/,
      );

      // Two instances starting with the rotated secret at once.
      const rotated = await Promise.all(
        Array.from({ length: 3 }, () => loadSigningKeys(database.db, { secret: SECRET_B, previousSecrets: [SECRET_A] })),
      );
      for (const keys of rotated) expect(keys.privateJwks).toEqual([original]);
      const [row] = await database.db.select().from(signingKeys);
      expect(row!.sealedWith).toBe(secretId(SECRET_B));
      // Sealed under the new secret now: the old one is no longer needed, and no longer enough.
      expect((await loadSigningKeys(database.db, { secret: SECRET_B, previousSecrets: [] })).privateJwks).toEqual([original]);
      await expect(loadSigningKeys(database.db, { secret: SECRET_A, previousSecrets: [] })).rejects.toThrow(/FOYER_PREVIOUS_SECRETS/);
    } finally {
      await database.close();
    }
  });

  it('a sealed key copied onto another key id does not open', async () => {
    const database = await openTestDatabase();
    try {
      await database.db.delete(signingKeys);
      await loadSigningKeys(database.db, { secret: SECRET_A, previousSecrets: [] });
      const [row] = await database.db.select().from(signingKeys);
      await database.db.insert(signingKeys).values({ ...row!, kid: 'copied' });
      await expect(loadSigningKeys(database.db, { secret: SECRET_A, previousSecrets: [] })).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});

describe('the outbox in production', () => {
  let foyer: TestFoyer;
  beforeAll(async () => {
    foyer = await startFoyer({ env: 'production' });
  });
  afterAll(() => foyer?.close());

  async function waitForRow(recipient: string) {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const rows = await foyer.db.select().from(outbox).where(eq(outbox.recipient, recipient));
      if (rows.length > 0) return rows;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`nothing in the outbox for ${recipient}`);
  }

  it('records a reset mail without its link', async () => {
    const member = await createMember(foyer);
    const answer = await call(foyer, new Browser(), 'POST', '/auth/password', { username: member.email }, { ip: '10.9.0.1' });
    expect(answer.status).toBeLessThan(300);
    const [row] = await waitForRow(member.email);
    expect(row).toMatchObject({ kind: 'reset', recipient: member.email });
    expect(`${row!.subject}\n${row!.text}\n${row!.html ?? ''}`).not.toMatch(/set-password|magic-link|https?:\/\//);
  });

  it('records a text message without its code, and a mail without its link', async () => {
    const notifier = createNotifier({ config: foyer.config, db: foyer.db });
    try {
      expect(
        await notifier.sendSms({ appId: foyer.demo.appId, to: '+46700000123', kind: 'mfa-code', code: '918273', expiresInSeconds: 600 }),
      ).toMatchObject({ delivered: true });
      const token = 'Zx9-secret-token-value-Qw';
      expect(
        await notifier.send({
          appId: foyer.demo.appId,
          to: 'someone@example.com',
          kind: 'magic-link',
          link: `${foyer.urls.ui}/auth/magic-link/${token}`,
          expiresInSeconds: 15 * 60,
        }),
      ).toMatchObject({ delivered: true });
      const [sms] = await waitForRow('+46700000123');
      expect(JSON.stringify(sms)).not.toContain('918273');
      const [mail] = await waitForRow('someone@example.com');
      expect(JSON.stringify(mail)).not.toContain(token);
    } finally {
      await notifier.close();
    }
  });
});
