// The admin API's webhook routes (/admin/apps/{appId}/webhooks...), registered inside the admin
// plugin as an extension (server/app.ts) so they share its callers, CORS and error answers: reading needs
// the owner's TENANT_READ, everything else (including revealing a secret) TENANT_WRITE; an API key
// reaches only its own app.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FoyerContext } from '../context.ts';
import { AccessTokenVerifier } from '../auth/access-tokens.ts';
import { appFor, resolveAdminCaller, type Access } from '../admin/caller.ts';
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

  app.get('/apps/:appId/webhooks', async (request: FastifyRequest<{ Params: { appId: string } }>) => ({
    endpoints: await listEndpoints(db, await appIdOf(request, 'read')),
    eventTypes: WEBHOOK_EVENT_TYPES,
  }));

  app.post('/apps/:appId/webhooks', async (request: FastifyRequest<{ Params: { appId: string } }>, reply) => {
    const appId = await appIdOf(request, 'write');
    return reply.status(201).send(await createEndpoint(config, db, appId, request.body));
  });

  app.put('/apps/:appId/webhooks/:endpointId', async (request: EndpointRequest) => ({
    endpoint: await updateEndpoint(config, db, await appIdOf(request, 'write'), request.params.endpointId, request.body),
  }));

  app.delete('/apps/:appId/webhooks/:endpointId', async (request: EndpointRequest, reply) => {
    await deleteEndpoint(db, await appIdOf(request, 'write'), request.params.endpointId);
    return reply.status(204).send();
  });

  app.get('/apps/:appId/webhooks/:endpointId/secret', async (request: EndpointRequest) => ({
    secret: await revealSecret(config, db, await appIdOf(request, 'write'), request.params.endpointId),
  }));

  app.post('/apps/:appId/webhooks/:endpointId/secret', async (request: EndpointRequest, reply) => {
    const secret = await rotateSecret(config, db, await appIdOf(request, 'write'), request.params.endpointId);
    return reply.status(201).send({ secret });
  });

  app.get('/apps/:appId/webhooks/:endpointId/deliveries', async (request: EndpointRequest) => ({
    deliveries: await listDeliveries(db, await appIdOf(request, 'read'), request.params.endpointId),
  }));

  app.post('/apps/:appId/webhooks/:endpointId/deliveries/:deliveryId/resend', async (request: DeliveryRequest, reply) => {
    const appId = await appIdOf(request, 'write');
    const delivery = await resendDelivery(db, appId, request.params.endpointId, request.params.deliveryId);
    return reply.status(201).send({ delivery });
  });
}
