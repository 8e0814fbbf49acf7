import { errorAnswerSchema } from '@portal/contracts/common';
import {
  STAFF_API,
  staffAuditAnswerSchema,
  staffAuditQuerySchema,
  staffDoneAnswerSchema,
  staffGrantRequestSchema,
  staffMembersAnswerSchema,
  staffReasonRequestSchema,
} from '@portal/contracts/staff';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StaffAccountService } from './account-service.js';
import type { StaffAuditService } from './audit-service.js';
import { actorOf, type StaffGuard } from './guard.js';
import { STAFF_MESSAGES } from './messages.js';
import { common, notStaff, proofNeeded } from './proof-routes.js';
import type { StaffRoleService } from './role-service.js';

const changeAnswers = {
  200: staffDoneAnswerSchema,
  400: errorAnswerSchema,
  ...proofNeeded,
  ...notStaff,
  409: errorAnswerSchema.describe('Отказ: ничего не изменилось'),
};

/** The admin's calls: roles and the audit. */
export const staffAdminRoutes: FastifyPluginAsyncZod<{
  guard: StaffGuard;
  roles: StaffRoleService;
  accounts: StaffAccountService;
  audit: StaffAuditService;
}> = async (app, { guard, roles, accounts, audit }) => {
  const admin = guard.require('admin');

  app.get(
    `${STAFF_API}/roles`,
    {
      onRequest: admin,
      schema: {
        ...common,
        summary: 'Сотрудники и их роли',
        response: { 200: staffMembersAnswerSchema, ...proofNeeded, ...notStaff },
      },
    },
    async () => ({
      items: (await roles.list()).map(({ user, role }) => ({
        userId: user.id,
        email: user.email,
        username: user.userName,
        role: role.role,
        grantedBy: role.grantedBy,
        grantedAt: role.grantedAt.toISOString(),
      })),
    }),
  );

  app.post(
    `${STAFF_API}/roles`,
    {
      onRequest: admin,
      schema: {
        ...common,
        summary: 'Выдать роль (или сменить её) аккаунту с этой почтой',
        body: staffGrantRequestSchema,
        response: changeAnswers,
      },
    },
    async (request) => {
      const { email, role, reason } = request.body;
      await roles.grant(actorOf(request, reason), await roles.findByEmail(email), role);
      return { message: STAFF_MESSAGES.roleGranted };
    },
  );

  app.post(
    `${STAFF_API}/roles/:userId/revoke`,
    {
      onRequest: admin,
      schema: {
        ...common,
        summary: 'Снять роль; сеансы сотрудника с подтверждением завершаются',
        params: z.object({ userId: z.string().max(100) }),
        body: staffReasonRequestSchema,
        response: changeAnswers,
      },
    },
    async (request) => {
      const user = await accounts.find(request.params.userId);
      await roles.revoke(actorOf(request, request.body.reason), user);
      return { message: STAFF_MESSAGES.roleRevoked };
    },
  );

  app.get(
    `${STAFF_API}/audit`,
    {
      onRequest: admin,
      schema: {
        ...common,
        summary: 'Журнал действий поддержки (командная строка и страницы), новые сверху',
        querystring: staffAuditQuerySchema,
        response: {
          200: staffAuditAnswerSchema,
          400: errorAnswerSchema,
          ...proofNeeded,
          ...notStaff,
        },
      },
    },
    async (request) => audit.page(request.query),
  );

  app.get(
    `${STAFF_API}/audit.csv`,
    {
      onRequest: admin,
      schema: {
        ...common,
        summary: 'Журнал действий с теми же фильтрами, все строки, файлом CSV',
        description:
          'UTF-8 с BOM, разделитель `,`, строки CRLF; ячейка, начинающаяся с = + - @, ' +
          "получает впереди `'`, чтобы таблица не выполнила её как формулу.",
        querystring: staffAuditQuerySchema,
        response: {
          200: {
            description: 'Файл CSV',
            content: { 'text/csv': { schema: z.any().meta({ type: 'string' }) } },
          },
          400: errorAnswerSchema,
          ...proofNeeded,
          ...notStaff,
        },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .header('cache-control', 'no-store')
        .send(await audit.csv(request.query)),
  );
};
