import {
  type DeletionScheduledAnswer,
  deletionScheduledAnswerSchema,
} from '@portal/contracts/account-data';
import { messageAnswerSchema } from '@portal/contracts/common';
import { getFile } from '@/shared/api/get-file';
import { msApi } from '@/shared/api/http';

const BASE = '/authms/api/Auth/account-data';

/** The file «Скачать мои данные» and its name from `Content-Disposition`. */
export function getExport(): Promise<{ file: Blob; fileName: string }> {
  return getFile(msApi, `${BASE}/export`, { fallbackName: 'moi-dannye.json' });
}

export async function postDeletion(): Promise<DeletionScheduledAnswer> {
  const { data } = await msApi.post<unknown>(`${BASE}/deletion`, undefined, { requiresAuth: true });
  return deletionScheduledAnswerSchema.parse(data);
}

/** The letter's link: the page posts its token (no session needed). */
export async function postCancelDeletion(token: string): Promise<string> {
  const { data } = await msApi.post<unknown>(`${BASE}/deletion/cancel`, { token });
  return messageAnswerSchema.parse(data).message;
}
