import type { UpdateAvatarAnswer } from '@portal/contracts/profile';
import { msApi } from '@/shared/api/http';

/** PUT update-avatar: the address `/upload` answered. */
export async function updateAvatar(
  avatarUrl: string,
  signal?: AbortSignal,
): Promise<UpdateAvatarAnswer> {
  const { data } = await msApi.put<UpdateAvatarAnswer>(
    '/authms/api/Auth/update-avatar',
    { avatarUrl },
    { requiresAuth: true, signal },
  );
  return data;
}
