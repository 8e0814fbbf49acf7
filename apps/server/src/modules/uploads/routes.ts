import { randomBytes } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import { errorAnswerSchema } from '@portal/contracts/common';
import { uploadAnswerSchema } from '@portal/contracts/profile';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { enforceLimit } from '../../adapters/rate-limit.js';
import { LOCAL_UPLOADS_ROUTE, LocalFileStorage } from '../../adapters/storage.js';
import { errorAnswers } from '../../http/openapi.js';
import { requireSession, sessionOf } from '../auth/index.js';
import { AVATAR_LIMITS, AVATAR_MESSAGES, processAvatar } from './avatar-image.js';
import { recordUpload } from './repository.js';

const errorResponses = errorAnswers(400, 401, 413, 429);

/** A stored image's bytes (a Buffer; the document says binary). */
const imageBytes = z.any().meta({ type: 'string', format: 'binary' });

/** Re-encoding costs CPU: uploads per user and window. */
export const UPLOAD_RATE_LIMIT = { limit: 30, windowMs: 10 * 60_000 } as const;

/** `/upload` and, for the local directory, the files themselves at `/uploads/<key>`. */
export async function uploadRoutes(app: FastifyInstance) {
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: AVATAR_LIMITS.maxBytes,
      files: 1,
      fields: 4,
      fieldSize: 1024,
      parts: 5,
      headerPairs: 50,
    },
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/upload',
    {
      onRequest: requireSession,
      // The route reads the multipart body itself (readFilePart); this is its description.
      config: {
        openApiBody: {
          type: 'object',
          required: ['file'],
          properties: {
            file: { type: 'string', format: 'binary', description: 'PNG или JPEG' },
          },
        },
      },
      schema: {
        tags: ['uploads'],
        summary: 'Загрузка изображения (multipart, поле file)',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 200: uploadAnswerSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      await enforceLimit(app.deps.rateLimiter, `upload:user:${userId}`, UPLOAD_RATE_LIMIT);
      const bytes = await readFilePart(request, reply);
      if (!bytes) return reply;

      const image = await processAvatar(bytes);
      // The name is ours: nothing of the client's file name reaches the storage.
      const key = `${randomBytes(16).toString('hex')}.${image.extension}`;
      const address = await app.deps.storage.put(key, image.body, image.contentType);
      await recordUpload(app.deps.db, {
        key,
        address,
        userId,
        contentType: image.contentType,
        sizeBytes: image.body.length,
        createdAt: app.deps.clock.now(),
      });
      return { data: address };
    },
  );

  const storage = app.deps.storage;
  if (storage instanceof LocalFileStorage) {
    typed.get(
      `${LOCAL_UPLOADS_ROUTE}/:key`,
      {
        schema: {
          tags: ['uploads'],
          summary: 'Загруженный файл',
          params: z.object({ key: z.string().max(64) }),
          response: {
            200: {
              description: 'Изображение',
              content: {
                'image/png': { schema: imageBytes },
                'image/jpeg': { schema: imageBytes },
              },
            },
            400: errorAnswerSchema,
            404: errorAnswerSchema,
          },
        },
      },
      async (request, reply) => {
        const { key } = request.params;
        // The storage reads only a key of the shape it makes (adapters/storage.ts).
        const body = await storage.read(key);
        if (!body) return reply.status(404).send({ message: 'Файл не найден' });
        return (
          reply
            .type(key.endsWith('.png') ? 'image/png' : 'image/jpeg')
            .header('X-Content-Type-Options', 'nosniff')
            .header('Content-Security-Policy', "default-src 'none'; sandbox")
            .header('Content-Disposition', 'inline')
            // Avatars are shown on sibling sites too; names are unguessable and never reused.
            .header('Cross-Origin-Resource-Policy', 'cross-origin')
            .header('Cache-Control', 'public, max-age=31536000, immutable')
            .send(body)
        );
      },
    );
  }
}

/** The one `file` part of the request, or null after answering why there is none. */
async function readFilePart(request: FastifyRequest, reply: FastifyReply): Promise<Buffer | null> {
  const noFile = () => {
    void reply
      .status(400)
      .send({ message: AVATAR_MESSAGES.noFile, errors: { file: [AVATAR_MESSAGES.noFile] } });
    return null;
  };
  if (!request.isMultipart()) return noFile();
  try {
    const part = await request.file();
    if (part?.fieldname !== 'file') {
      part?.file.resume();
      return noFile();
    }
    return await part.toBuffer();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      void reply
        .status(413)
        .send({ message: AVATAR_MESSAGES.tooLarge, errors: { file: [AVATAR_MESSAGES.tooLarge] } });
      return null;
    }
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return noFile();
    // The multipart parser (busboy) reports a body it cannot read (no boundary, cut-off data) as
    // a plain Error: that is the client's malformed request, not a server fault.
    if ((error as { statusCode?: number }).statusCode === undefined) return noFile();
    throw error;
  }
}
