import type { MessageAnswer } from '@portal/contracts/common';
import { msApi } from '@/shared/api/http';

/** POST users/unlink-telegram (a fresh proof of the owner first: 403 `proof_required`). */
export async function unlinkTelegram(): Promise<MessageAnswer> {
  const { data } = await msApi.post<MessageAnswer>(
    '/authms/api/Auth/users/unlink-telegram',
    undefined,
    {
      requiresAuth: true,
    },
  );
  return data;
}

/** POST users/unlink-yandex; 409 while Yandex ID is the account's only way in (no password). */
export async function unlinkYandex(): Promise<MessageAnswer> {
  const { data } = await msApi.post<MessageAnswer>(
    '/authms/api/Auth/users/unlink-yandex',
    undefined,
    {
      requiresAuth: true,
    },
  );
  return data;
}
