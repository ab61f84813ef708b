// Workspace logo upload from the workspace settings page (POST /workspace/logo): OWNERs and ADMINs of
// the token's workspace only, the configurator's logo checks (type by first bytes, no SVG, 256 KiB),
// 20 an hour per workspace, served like app logos and named by the workspace afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startFoyer, type TestFoyer } from '../../../server/testing.ts';
import { auditEvents, tenants } from '../../../server/db/schema.ts';
import { WORKSPACE_LOGO_UPLOADS } from '../../../server/branding/workspace-logo.ts';
import { findMembership, mintAccessToken, type Membership } from '../support/tokens.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

let foyer: TestFoyer;

beforeAll(async () => {
  foyer = await startFoyer();
});
afterAll(() => foyer?.close());

async function tokenOf(email: string, workspace: string): Promise<{ token: string; member: Membership }> {
  const member = await findMembership(foyer.db, email, workspace);
  return { token: await mintAccessToken(foyer.db, member, { issuer: foyer.urls.auth }), member };
}

async function upload(token: string | undefined, body: Uint8Array, contentType = 'image/png') {
  const response = await fetch(`${foyer.urls.api}/workspace/logo`, {
    method: 'POST',
    headers: { 'content-type': contentType, origin: foyer.urls.ui, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: new Uint8Array(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

const logoOf = async (tenantId: string) =>
  (await foyer.db.select({ logo: tenants.logo }).from(tenants).where(eq(tenants.id, tenantId)))[0]!.logo;

describe('workspace logo upload', () => {
  it("an OWNER's upload becomes the workspace's logo, served from the API host like an app logo", async () => {
    const { token, member } = await tokenOf('owner@demo.foyer.test', 'Acme');
    const answer = await upload(token, PNG);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('access-control-allow-origin')).toBe(foyer.urls.ui);
    const url = answer.body.logo as string;
    expect(url).toMatch(new RegExp(`^${foyer.urls.api}/${foyer.demo.appId}/assets/[0-9a-f-]{36}$`));
    expect(await logoOf(member.tenantId)).toBe(url);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    // The workspace log names who uploaded it.
    const [event] = await foyer.db.select().from(auditEvents).where(eq(auditEvents.type, 'tenant.logo_uploaded'));
    expect(event).toMatchObject({ tenantUserId: member.tenantUserId, detail: expect.objectContaining({ tenantId: member.tenantId }) });
  });

  it('an ADMIN may upload; a VIEWER, a signed-out caller and a bad token may not, and nothing changes', async () => {
    const admin = await tokenOf('admin@acme.demo.foyer.test', 'Acme');
    expect((await upload(admin.token, PNG)).status).toBe(201);

    const viewer = await tokenOf('viewer@globex.demo.foyer.test', 'Globex');
    const before = await logoOf(viewer.member.tenantId);
    const refused = await upload(viewer.token, PNG);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ statusCode: 403, error: 'FORBIDDEN' });
    const anonymous = await upload(undefined, PNG);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ statusCode: 401, error: 'UNAUTHENTICATED' });
    expect((await upload('not-a-token', PNG)).status).toBe(401);
    expect(await logoOf(viewer.member.tenantId)).toBe(before);
  });

  it('refuses SVG, files whose bytes are not the declared type, empty and oversized files', async () => {
    const { token, member } = await tokenOf('owner@demo.foyer.test', 'Globex');
    const before = await logoOf(member.tenantId);
    for (const [body, type] of [
      [SVG, 'image/svg+xml'],
      [SVG, 'image/png'],
      [PNG, 'image/jpeg'],
      [Buffer.alloc(0), 'image/png'],
    ] as const) {
      const answer = await upload(token, body, type);
      expect(answer.status, type).toBe(400);
      expect(answer.body, type).toMatchObject({ statusCode: 400, error: 'UNSUPPORTED_IMAGE' });
    }
    const tooBig = await upload(token, Buffer.concat([PNG, Buffer.alloc(256 * 1024)]));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ statusCode: 413, error: 'FILE_TOO_LARGE' });
    expect(await logoOf(member.tenantId)).toBe(before);
  });

  it('allows 20 uploads an hour per workspace, counted even when they arrive at once; refusals do not count', async () => {
    const member = await findMembership(foyer.db, 'owner@demo.foyer.test', 'Globex');
    const token = await mintAccessToken(foyer.db, member, { issuer: foyer.urls.auth });
    const statuses = await Promise.all(
      Array.from({ length: WORKSPACE_LOGO_UPLOADS.max + 5 }, () => upload(token, PNG).then((answer) => answer.status)),
    );
    expect(
      statuses.filter((status) => status === 201),
      JSON.stringify(statuses),
    ).toHaveLength(WORKSPACE_LOGO_UPLOADS.max);
    const refused = await upload(token, PNG);
    expect(refused.body).toMatchObject({ statusCode: 429, error: 'TOO_MANY_UPLOADS' });
    // Another workspace keeps its own count.
    const acme = await tokenOf('owner@demo.foyer.test', 'Acme');
    expect((await upload(acme.token, PNG)).status).toBe(201);
  });
});
