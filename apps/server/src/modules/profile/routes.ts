import {
  emailChangeConfirmAnswerSchema,
  emailChangeConfirmRequestSchema,
  emailChangeNewEmailRequestSchema,
  emailChangeStepAnswerSchema,
  emailChangeVerifyCurrentRequestSchema,
  updateAvatarAnswerSchema,
  updateAvatarRequestSchema,
  updateProfileAnswerSchema,
  updateProfileRequestSchema,
} from '@portal/contracts/profile';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorAnswers } from '../../http/openapi.js';
import { requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { PROFILE_MESSAGES } from './messages.js';
import type { ProfileService } from './profile-service.js';

const tags = ['profile'];
const security = [{ bearer: [] }];
const errors = errorAnswers(400, 401, 404, 409, 429);

/** `update-profile`, `update-avatar` and the e-mail change, all under the authms prefix. */
export const profileRoutes: FastifyPluginAsyncZod<{ profile: ProfileService }> = async (
  app,
  { profile },
) => {
  const protectedRoute = { onRequest: requireSession };

  app.put(
    '/update-profile',
    {
      ...protectedRoute,
      schema: {
        tags,
        security,
        summary: 'Мои данные: никнейм, имя, отчество, фамилия',
        body: updateProfileRequestSchema,
        response: { 200: updateProfileAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const stored = await profile.updateProfile(sessionOf(request).userId, request.body);
      return { message: PROFILE_MESSAGES.profileUpdated, ...stored };
    },
  );

  app.put(
    '/update-avatar',
    {
      ...protectedRoute,
      schema: {
        tags,
        security,
        summary: 'Аватар: адрес, выданный /upload',
        body: updateAvatarRequestSchema,
        response: { 200: updateAvatarAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await profile.updateAvatar(sessionOf(request).userId, request.body.avatarUrl);
      return { message: PROFILE_MESSAGES.avatarUpdated };
    },
  );

  app.post(
    '/email-change/request-code',
    {
      ...protectedRoute,
      schema: {
        tags,
        security,
        summary: 'Смена почты, шаг 1: код на текущую почту',
        response: { 200: emailChangeStepAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await profile.sendCurrentEmailCode(sessionOf(request).userId);
      return { message: PROFILE_MESSAGES.currentCodeSent };
    },
  );

  app.post(
    '/email-change/verify-current',
    {
      ...protectedRoute,
      schema: {
        tags,
        security,
        summary: 'Смена почты, шаг 2: код с текущей почты',
        body: emailChangeVerifyCurrentRequestSchema,
        response: { 200: emailChangeStepAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { userId, id } = sessionOf(request);
      await profile.confirmCurrentEmail(userId, id, request.body.code);
      return { message: PROFILE_MESSAGES.currentConfirmed };
    },
  );

  app.post(
    '/email-change/new-email',
    {
      ...protectedRoute,
      schema: {
        tags,
        security,
        summary: 'Смена почты, шаг 3: новая почта получает свой код (и повторно)',
        body: emailChangeNewEmailRequestSchema,
        response: { 200: emailChangeStepAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { userId, id } = sessionOf(request);
      await profile.sendNewEmailCode(userId, id, request.body.email);
      return { message: PROFILE_MESSAGES.newCodeSent };
    },
  );

  app.post(
    '/email-change/confirm',
    {
      ...protectedRoute,
      schema: {
        tags,
        security,
        summary: 'Смена почты, шаг 4: код с новой почты; почта меняется',
        body: emailChangeConfirmRequestSchema,
        response: { 200: emailChangeConfirmAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { userId, id } = sessionOf(request);
      const email = await profile.confirmNewEmail(userId, id, request.body.code, clientOf(request));
      return { message: PROFILE_MESSAGES.emailUpdated, email };
    },
  );
};
