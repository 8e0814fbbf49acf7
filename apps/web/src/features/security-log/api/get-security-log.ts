import {
  type SecurityLogAnswer,
  type SecurityLogQuery,
  securityLogAnswerSchema,
} from '@portal/contracts/security-log';
import { msApi } from '@/shared/api/http';

/** One page of the account's security log, newest first (`GET /authms/api/Auth/security-log`). */
export async function getSecurityLog(
  query: SecurityLogQuery,
  signal?: AbortSignal,
): Promise<SecurityLogAnswer> {
  const { data } = await msApi.get<unknown>('/authms/api/Auth/security-log', {
    params: query,
    signal,
    requiresAuth: true,
  });
  return securityLogAnswerSchema.parse(data);
}
