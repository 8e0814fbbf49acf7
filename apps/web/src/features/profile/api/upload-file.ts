import type { UploadAnswer } from '@portal/contracts/profile';
import { api } from '@/shared/api/http';

/** POST /upload (main base): multipart field `file`, progress in whole percent. */
export async function uploadFile(
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append('file', file);
  const { data } = await api.post<UploadAnswer>('/upload', form, {
    requiresAuth: true,
    signal,
    onUploadProgress: (event) => {
      if (event.total) onProgress(Math.min(100, Math.round((event.loaded * 100) / event.total)));
    },
  });
  return data;
}
