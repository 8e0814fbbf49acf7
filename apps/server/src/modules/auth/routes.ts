import {
  handOffAnswerSchema,
  handOffRequestSchema,
  loginAnswerSchema,
  loginForbiddenAnswerSchema,
  loginRequestSchema,
  logoutAnswerSchema,
  registerAnswerSchema,
  registerRequestSchema,
  userSchema,
  verifyRegistrationAnswerSchema,
  verifyRegistrationRequestSchema,
  verifyTokenAnswerSchema,
  verifyTokenRequestSchema,
} from '@portal/contracts/auth';
import {
  ACCOUNT_BLOCKED,
  ACCOUNT_NOT_CONFIRMED,
  CODE_SENT_TO_EMAIL,
  LOGOUT_DONE,
  REGISTRATION_CONFIRMED,
} from '@portal/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorAnswers } from '../../http/openapi.js';
import { clientOf } from '../security-log/index.js';
import { requireSession, requireSessionOfAnySite, sessionOf } from './sessions.js';
import { checkSiblingKey, siblingKeys } from './siblings.js';

/** The prefix of the `authms` calls; security, two-factor and profile routes live under it too. */
export const AUTH_PREFIX = '/authms/api/Auth';

const tags = ['auth'];
const security = [{ bearer: [] }];
const errors = errorAnswers(400, 401, 403, 409, 429);

/** Identity calls: register, verify-registration, login, logout, user, verify-token, handoff. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, config, handOff, userReads } = app.deps;
  const keys = siblingKeys(config);

  app.post(
    '/register',
    {
      schema: {
        tags,
        summary: 'Регистрация: неподтверждённый аккаунт и код на почту (и повторная отправка)',
        body: registerRequestSchema,
        response: {
          200: registerAnswerSchema,
          400: errors[400],
          409: errors[409],
          429: errors[429],
        },
      },
    },
    async (request) => {
      await auth.register(request.body, clientOf(request));
      return { message: CODE_SENT_TO_EMAIL };
    },
  );

  app.post(
    '/verify-registration',
    {
      config: { answersToken: true },
      schema: {
        tags,
        summary: 'Подтверждение почты кодом; вход',
        body: verifyRegistrationRequestSchema,
        response: {
          200: verifyRegistrationAnswerSchema,
          400: errors[400],
          403: errors[403].describe(ACCOUNT_BLOCKED),
          429: errors[429],
        },
      },
    },
    async (request) => {
      const signedIn = await auth.verifyRegistration(request.body, clientOf(request));
      return { message: REGISTRATION_CONFIRMED, ...signedIn };
    },
  );

  app.post(
    '/login',
    {
      config: { answersToken: true },
      schema: {
        tags,
        summary: 'Вход по никнейму или почте; с двухфакторной защитой — requiresTwoFactor',
        body: loginRequestSchema,
        response: {
          200: loginAnswerSchema,
          400: errors[400],
          401: errors[401],
          403: loginForbiddenAnswerSchema.describe(`${ACCOUNT_NOT_CONFIRMED}; ${ACCOUNT_BLOCKED}`),
          429: errors[429],
        },
      },
    },
    async (request) => auth.login(request.body, clientOf(request)),
  );

  app.post(
    '/logout',
    {
      preHandler: requireSessionOfAnySite,
      schema: {
        tags,
        security,
        summary: 'Выход: завершает текущий сеанс',
        response: { 200: logoutAnswerSchema, 401: errors[401] },
      },
    },
    async (request) => {
      await auth.signOut(sessionOf(request), clientOf(request));
      return { message: LOGOUT_DONE };
    },
  );

  app.post(
    '/user',
    {
      preHandler: requireSessionOfAnySite,
      schema: {
        tags,
        security,
        summary: 'Текущий пользователь',
        response: { 200: userSchema, 401: errors[401] },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      return userReads.read(userId, 'user', () => auth.currentUser(userId));
    },
  );

  app.post(
    '/verify-token',
    {
      config: { answersToken: true },
      schema: {
        tags,
        summary: 'Проверка токена доступа или обмен кода передачи входа на сеанс сайта-партнёра',
        description:
          'Токен доступа — `{userId}`, без ключа. Код передачи входа обменивает на сеанс только ' +
          'тот сайт-партнёр, для которого код выпущен, со своим ключом в `X-Api-Key`; ' +
          'код, предъявленный другим сайтом, сгорает.',
        security: [{}, { siblingApiKey: [] }],
        body: verifyTokenRequestSchema,
        response: {
          200: verifyTokenAnswerSchema,
          400: errors[400],
          401: errors[401],
          403: errors[403].describe(ACCOUNT_BLOCKED),
          429: errors[429],
        },
      },
    },
    async (request) => {
      const hasKey = request.headers['x-api-key'] !== undefined;
      const siblingByKey = hasKey ? () => checkSiblingKey(request, keys) : null;
      return handOff.verifyToken(request.body.token, siblingByKey, clientOf(request), request.log);
    },
  );

  app.post(
    '/handoff',
    {
      preHandler: requireSession,
      schema: {
        tags,
        security,
        summary: 'Ссылка на сайт-партнёр из списка разрешённых с одноразовым кодом входа',
        body: handOffRequestSchema,
        response: { 200: handOffAnswerSchema, 400: errors[400], 401: errors[401] },
      },
    },
    async (request) => ({
      url: await handOff.mint(sessionOf(request).userId, request.body.link, clientOf(request)),
    }),
  );
};
