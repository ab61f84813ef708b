// The admin API's webhook routes (/admin/apps/{appId}/webhooks...), registered inside the admin
// plugin as an extension (server/app.ts) so they share its callers, CORS and error answers: reading needs
// the owner's TENANT_READ, everything else (including revealing a secret) TENANT_WRITE; an API key
// reaches only its own app.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { appFor, resolveAdminCaller, type Access } from '../admin/caller.ts';
import { ADMIN_SECURITY, ADMIN_TAG } from '../admin/plugin.ts';
import { handlerCheckedBody } from '../http/openapi.ts';
import { refusals } from '../../common/api/errors.ts';
import {
  AppParams,
  NewWebhookEndpoint,
  WebhookDeliveryAnswer,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookEndpointAnswer,
  WebhookEndpointBody,
  WebhookEndpointChange,
  WebhookEndpointList,
  WebhookParams,
  WebhookSecret,
} from '../../common/api/admin.ts';
import { Type } from 'typebox';
import { WEBHOOK_EVENT_TYPES } from '../../common/webhooks.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  revealSecret,
  rotateSecret,
  updateEndpoint,
} from './service.ts';

type EndpointRequest = FastifyRequest<{ Params: { appId: string; endpointId: string } }>;
type DeliveryRequest = FastifyRequest<{ Params: { appId: string; endpointId: string; deliveryId: string } }>;

export async function webhookRoutes(app: FastifyInstance, context: FoyerContext): Promise<void> {
  const { db, config } = context;
  const verifier = new AccessTokenVerifier(db, config.urls.auth);

  async function appIdOf(request: FastifyRequest<{ Params: { appId: string } }>, access: Access): Promise<string> {
    const caller = await resolveAdminCaller(db, verifier, request);
    return (await appFor(db, caller, request.params.appId, access)).id;
  }

  const route = (summary: string) => ({ tags: [ADMIN_TAG], summary, security: ADMIN_SECURITY });
  const refused = refusals(400, 401, 403, 404);

  app.get(
    '/apps/:appId/webhooks',
    {
      schema: {
        ...route("The app's webhook endpoints and the event types there are"),
        params: AppParams,
        response: { 200: WebhookEndpointList, ...refused },
      },
    },
    async (request: FastifyRequest<{ Params: { appId: string } }>) => ({
      endpoints: await listEndpoints(db, await appIdOf(request, 'read')),
      eventTypes: WEBHOOK_EVENT_TYPES,
    }),
  );

  app.post(
    '/apps/:appId/webhooks',
    {
      schema: {
        ...route('A new webhook endpoint, answered with its signing secret'),
        params: AppParams,
        response: { 201: NewWebhookEndpoint, ...refusals(400, 401, 403, 404, 409) },
      },
      config: handlerCheckedBody(WebhookEndpointBody),
    },
    async (request: FastifyRequest<{ Params: { appId: string } }>, reply) => {
      const appId = await appIdOf(request, 'write');
      return reply.status(201).send(await createEndpoint(config, db, appId, request.body));
    },
  );

  app.put(
    '/apps/:appId/webhooks/:endpointId',
    {
      schema: { ...route('Change a webhook endpoint'), params: WebhookParams, response: { 200: WebhookEndpointAnswer, ...refused } },
      config: handlerCheckedBody(WebhookEndpointChange),
    },
    async (request: EndpointRequest) => ({
      endpoint: await updateEndpoint(config, db, await appIdOf(request, 'write'), request.params.endpointId, request.body),
    }),
  );

  app.delete(
    '/apps/:appId/webhooks/:endpointId',
    {
      schema: {
        ...route('Delete a webhook endpoint with its delivery log'),
        params: WebhookParams,
        response: { 204: Type.Null(), ...refused },
      },
    },
    async (request: EndpointRequest, reply) => {
      await deleteEndpoint(db, await appIdOf(request, 'write'), request.params.endpointId);
      return reply.status(204).send();
    },
  );

  app.get(
    '/apps/:appId/webhooks/:endpointId/secret',
    { schema: { ...route("Reveal the endpoint's signing secret"), params: WebhookParams, response: { 200: WebhookSecret, ...refused } } },
    async (request: EndpointRequest) => ({
      secret: await revealSecret(config, db, await appIdOf(request, 'write'), request.params.endpointId),
    }),
  );

  app.post(
    '/apps/:appId/webhooks/:endpointId/secret',
    {
      schema: {
        ...route("Replace the endpoint's signing secret (rotation)"),
        params: WebhookParams,
        response: { 201: WebhookSecret, ...refused },
      },
    },
    async (request: EndpointRequest, reply) => {
      const secret = await rotateSecret(config, db, await appIdOf(request, 'write'), request.params.endpointId);
      return reply.status(201).send({ secret });
    },
  );

  app.get(
    '/apps/:appId/webhooks/:endpointId/deliveries',
    {
      schema: {
        ...route("The endpoint's latest deliveries"),
        params: WebhookParams,
        response: { 200: WebhookDeliveryList, ...refused },
      },
    },
    async (request: EndpointRequest) => ({
      deliveries: await listDeliveries(db, await appIdOf(request, 'read'), request.params.endpointId),
    }),
  );

  app.post(
    '/apps/:appId/webhooks/:endpointId/deliveries/:deliveryId/resend',
    {
      schema: {
        ...route('Send a delivered event again, as a new delivery with the same webhook-id'),
        params: WebhookDeliveryParams,
        response: { 201: WebhookDeliveryAnswer, ...refused },
      },
    },
    async (request: DeliveryRequest, reply) => {
      const appId = await appIdOf(request, 'write');
      const delivery = await resendDelivery(db, appId, request.params.endpointId, request.params.deliveryId);
      return reply.status(201).send({ delivery });
    },
  );
}
