import {
  type DeletionScheduledAnswer,
  type DeletionStatusAnswer,
  deletionScheduledAnswerSchema,
  deletionStatusAnswerSchema,
} from '@portal/contracts/account-data';
import { messageAnswerSchema } from '@portal/contracts/common';
import { msApi } from '@/shared/api/http';

const BASE = '/authms/api/Auth/account-data';

/** The file «Скачать мои данные» and its name from `Content-Disposition`. */
export async function getExport(): Promise<{ file: Blob; fileName: string }> {
  const response = await msApi
    .get<Blob>(`${BASE}/export`, { responseType: 'blob', requiresAuth: true })
    .catch(async (error: { response?: { data?: unknown } }) => {
      // A refusal arrives as a Blob too: read back into the JSON that toApiFailure understands.
      const data = error.response?.data;
      if (error.response && data instanceof Blob) {
        error.response.data = JSON.parse(await data.text()) as unknown;
      }
      throw error;
    });
  const disposition = String(response.headers['content-disposition'] ?? '');
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'moi-dannye.json';
  return { file: response.data, fileName };
}

export async function getDeletionStatus(signal?: AbortSignal): Promise<DeletionStatusAnswer> {
  const { data } = await msApi.get<unknown>(`${BASE}/deletion`, { signal, requiresAuth: true });
  return deletionStatusAnswerSchema.parse(data);
}

export async function postDeletion(): Promise<DeletionScheduledAnswer> {
  const { data } = await msApi.post<unknown>(`${BASE}/deletion`, undefined, { requiresAuth: true });
  return deletionScheduledAnswerSchema.parse(data);
}

export async function postCancelMyDeletion(): Promise<string> {
  const { data } = await msApi.post<unknown>(`${BASE}/deletion/cancel-mine`, undefined, {
    requiresAuth: true,
  });
  return messageAnswerSchema.parse(data).message;
}

export async function postDeletionNoticeSeen(): Promise<void> {
  await msApi.post(`${BASE}/deletion/notice-seen`, undefined, { requiresAuth: true });
}

/** The letter's link: the page posts its token (no session needed). */
export async function postCancelDeletion(token: string): Promise<string> {
  const { data } = await msApi.post<unknown>(`${BASE}/deletion/cancel`, { token });
  return messageAnswerSchema.parse(data).message;
}
