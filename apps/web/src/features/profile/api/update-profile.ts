import type { UpdateProfileAnswer, UpdateProfileRequest } from '@portal/contracts/profile';
import { msApi } from '@/shared/api/http';

/** PUT update-profile: the four name fields; answers the server's message. */
export async function updateProfile(body: UpdateProfileRequest): Promise<UpdateProfileAnswer> {
  const { data } = await msApi.put<UpdateProfileAnswer>('/authms/api/Auth/update-profile', body, {
    requiresAuth: true,
  });
  return data;
}
