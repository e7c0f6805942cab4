import { brandingEndpoint, logoRemoveEndpoint, logoUpdateEndpoint, logoUploadEndpoint } from '@latchkey/contracts';
import type { Db, Router } from '@latchkey/runtime';
import type { FastifyInstance } from 'fastify';
import { type Guard, requireCaller } from '../../http/caller.ts';
import { createBrandingService, LOGO_FILE_PATH } from './branding.service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function brandingRoutes(app: FastifyInstance, router: Router, guard: Guard, db: Db) {
  const branding = createBrandingService(db);
  router.handle(brandingEndpoint, guard, ({ ctx }) => branding.current(requireCaller(ctx)));
  router.handle(logoUploadEndpoint, guard, ({ ctx, input }) =>
    branding.upload(requireCaller(ctx), input.content_type, input.data),
  );
  router.handle(logoUpdateEndpoint, guard, ({ ctx, input }) =>
    branding.update(requireCaller(ctx), input.content_type, input.data),
  );
  router.handle(logoRemoveEndpoint, guard, ({ ctx }) => branding.remove(requireCaller(ctx)));

  // The image itself, for <img src>: each upload gets a new random id, so the address is
  // unguessable and its bytes never change (cached for a year); a removed logo is a 404.
  app.get<{ Params: { id: string } }>(`${LOGO_FILE_PATH}:id`, async (request, reply) => {
    const id = request.params.id.toLowerCase();
    const file = UUID.test(id) ? await branding.file(id) : undefined;
    if (!file) return reply.code(404).send({ code: 'not_found', description: 'No such logo.' });
    return reply
      .header('content-type', file.content_type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(Buffer.from(file.bytes));
  });
}
