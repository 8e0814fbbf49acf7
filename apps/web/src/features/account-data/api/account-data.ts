import {
  type DeletionScheduledAnswer,
  type DeletionStatusAnswer,
  deletionScheduledAnswerSchema,
  deletionStatusAnswerSchema,
} from '@portal/contracts/account-data';
import { messageAnswerSchema } from '@portal/contracts/common';
import { getFile } from '@/shared/api/get-file';
import { msApi } from '@/shared/api/http';

const BASE = '/authms/api/Auth/account-data';

/** The file «Скачать мои данные» and its name from `Content-Disposition`. */
export function getExport(): Promise<{ file: Blob; fileName: string }> {
  return getFile(msApi, `${BASE}/export`, { fallbackName: 'moi-dannye.json' });
}

export async function getDeletionStatus(signal?: AbortSignal): Promise<DeletionStatusAnswer> {
  const { data } = await msApi.get<unknown>(`${BASE}/deletion`, { signal, requiresAuth: true });
  return deletionStatusAnswerSchema.parse(data);
}

export async function postDeletion(): Promise<DeletionScheduledAnswer> {
  const { data } = await msApi.post<unknown>(`${BASE}/deletion`, undefined, { requiresAuth: true });
  return deletionScheduledAnswerSchema.parse(data);
}

export async function postDeletionNoticeSeen(): Promise<void> {
  await msApi.post(`${BASE}/deletion/notice-seen`, undefined, { requiresAuth: true });
}

/** The letter's link: the page posts its token (no session needed). */
export async function postCancelDeletion(token: string): Promise<string> {
  const { data } = await msApi.post<unknown>(`${BASE}/deletion/cancel`, { token });
  return messageAnswerSchema.parse(data).message;
}
