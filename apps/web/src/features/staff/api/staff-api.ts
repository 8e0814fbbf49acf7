import type { PasskeyAssertion, PasskeyRequestOptions } from '@portal/contracts/passkeys';
import {
  type MoneyRequest,
  STAFF_API,
  type StaffAccountAction,
  type StaffAccountAnswer,
  type StaffAuditAnswer,
  type StaffAuditQuery,
  type StaffCorrectionRequest,
  type StaffDoneAnswer,
  type StaffGrantRequest,
  type StaffMeAnswer,
  type StaffMoneyAnswer,
  type StaffProofAnswer,
  type StaffReceiptsAnswer,
  type StaffRefundRequest,
  type StaffSearchAnswer,
  type staffMemberSchema,
} from '@portal/contracts/staff';
import type { BaseQueryApi, QueryReturnValue } from '@reduxjs/toolkit/query';
import type { z } from 'zod';
import type { ApiFailure } from '@/shared/api/api-failure';
import type { PortalMeta, PortalRequest } from '@/shared/api/base-query';
import { portalApi } from '@/shared/api/portal-api';
import { withStaffProof } from './staff-proof-gate';

export type StaffMember = z.infer<typeof staffMemberSchema>;
/** The audit's filters, as the page and its CSV send them (no `before`: that is the page's). */
export type StaffAuditFilters = Omit<StaffAuditQuery, 'before'>;

type Answer = { data?: unknown; error?: ApiFailure; meta?: PortalMeta };
type Send = (request: PortalRequest) => Answer | PromiseLike<Answer>;

/**
 * An endpoint's `queryFn` for a staff call: the request `toRequest` makes, sent through the
 * slice's base query and repeated after the member's proof when the server asks for one
 * (`withStaffProof`). Every staff call but `…/me` and the proof's own goes through it.
 *
 * A 404 reads `…/me` again: the server answers a role taken back or a session ended as it
 * answers an unknown address, so the call alone cannot tell "no such account" from "no longer
 * staff". When `…/me` is 404 too, the area shows the not-found page (staff-entry.ts) instead of
 * a frame of a role that is gone, with «Повторить» that could never work.
 */
function staffCall<Arg, Result>(toRequest: (arg: Arg) => PortalRequest) {
  return async (
    arg: Arg,
    api: Pick<BaseQueryApi, 'dispatch'>,
    _extra: unknown,
    send: Send,
  ): Promise<QueryReturnValue<Result, ApiFailure, PortalMeta | undefined>> => {
    const result = await withStaffProof(async () => await send(toRequest(arg)));
    if (result.error?.status === 404) api.dispatch(staffApi.util.invalidateTags(['StaffMe']));
    return result.error
      ? { error: result.error }
      : { data: result.data as Result, meta: result.meta };
  };
}

const url = (path: string) => `${STAFF_API}${path}`;
const id = (value: string) => encodeURIComponent(value);

/** What a change of an account touches: the account page and the audit. */
const accountChanged = (accountId: string) => [
  { type: 'StaffAccount' as const, id: accountId },
  'StaffAudit' as const,
];

/**
 * The support desk's calls (packages/contracts/src/staff.ts), with their own tags: a change reads
 * again the account it changed, the money requests, the staff list and the audit as it touched
 * them. Its code comes with the staff area only.
 */
export const staffApi = portalApi
  .enhanceEndpoints({
    addTagTypes: [
      'StaffMe',
      'StaffAccount',
      'StaffSearch',
      'StaffMoney',
      'StaffRoles',
      'StaffAudit',
    ],
  })
  .injectEndpoints({
    endpoints: (build) => ({
      /** Who the member is; 404 for anyone who is not staff. Never needs a proof. */
      staffMe: build.query<StaffMeAnswer, void>({
        query: () => ({ url: url('/me') }),
        providesTags: ['StaffMe'],
      }),
      proveWithCode: build.mutation<StaffProofAnswer, { code: string }>({
        query: (body) => ({ url: url('/proof'), method: 'POST', body }),
        invalidatesTags: ['StaffMe'],
      }),
      passkeyProofOptions: build.mutation<PasskeyRequestOptions, void>({
        query: () => ({ url: url('/proof/passkey/options'), method: 'POST' }),
        transformResponse: (answer: { options: PasskeyRequestOptions }) => answer.options,
      }),
      proveWithPasskey: build.mutation<StaffProofAnswer, { credential: PasskeyAssertion }>({
        query: (body) => ({ url: url('/proof/passkey'), method: 'POST', body }),
        invalidatesTags: ['StaffMe'],
      }),

      searchAccounts: build.query<StaffSearchAnswer, { q: string; page: number }>({
        queryFn: staffCall(({ q, page }) => ({ url: url('/accounts'), params: { q, page } })),
        providesTags: ['StaffSearch'],
      }),
      account: build.query<StaffAccountAnswer, string>({
        queryFn: staffCall((accountId: string) => ({ url: url(`/accounts/${id(accountId)}`) })),
        providesTags: (_answer, _error, accountId) => [{ type: 'StaffAccount', id: accountId }],
      }),
      /** A payment's receipts; each read is recorded in the audit (`receipts_opened`). */
      paymentReceipts: build.query<StaffReceiptsAnswer, string>({
        queryFn: staffCall((paymentId: string) => ({
          url: url(`/payments/${id(paymentId)}/receipts`),
        })),
      }),
      accountAction: build.mutation<
        StaffDoneAnswer,
        { accountId: string; action: StaffAccountAction; reason: string }
      >({
        queryFn: staffCall(({ accountId, action, reason }) => ({
          url: url(`/accounts/${id(accountId)}/${action}`),
          method: 'POST',
          body: { reason },
        })),
        invalidatesTags: (_answer, _error, { accountId }) => [
          ...accountChanged(accountId),
          'StaffSearch',
        ],
      }),
      sendFactorResetCode: build.mutation<StaffDoneAnswer, { accountId: string; reason: string }>({
        queryFn: staffCall(({ accountId, reason }) => ({
          url: url(`/accounts/${id(accountId)}/factor-reset/code`),
          method: 'POST',
          body: { reason },
        })),
        invalidatesTags: ['StaffAudit'],
      }),
      resetFactors: build.mutation<
        StaffDoneAnswer,
        { accountId: string; reason: string; code: string }
      >({
        queryFn: staffCall(({ accountId, ...body }) => ({
          url: url(`/accounts/${id(accountId)}/factor-reset`),
          method: 'POST',
          body,
        })),
        invalidatesTags: (_answer, _error, { accountId }) => accountChanged(accountId),
      }),
      resendLetter: build.mutation<
        StaffDoneAnswer,
        { accountId: string; letterId: string; reason: string }
      >({
        queryFn: staffCall(({ letterId, reason }) => ({
          url: url(`/letters/${id(letterId)}/resend`),
          method: 'POST',
          body: { reason },
        })),
        invalidatesTags: (_answer, _error, { accountId }) => accountChanged(accountId),
      }),
      correction: build.mutation<StaffMoneyAnswer, { accountId: string } & StaffCorrectionRequest>({
        queryFn: staffCall(({ accountId, ...body }) => ({
          url: url(`/accounts/${id(accountId)}/correction`),
          method: 'POST',
          body,
        })),
        invalidatesTags: (_answer, _error, { accountId }) => [
          ...accountChanged(accountId),
          'StaffMoney',
        ],
      }),
      refund: build.mutation<
        StaffMoneyAnswer,
        { accountId: string; paymentId: string } & StaffRefundRequest
      >({
        queryFn: staffCall(({ accountId: _accountId, paymentId, ...body }) => ({
          url: url(`/payments/${id(paymentId)}/refund`),
          method: 'POST',
          body,
        })),
        invalidatesTags: (_answer, _error, { accountId }) => [
          ...accountChanged(accountId),
          'StaffMoney',
        ],
      }),

      reconcile: build.mutation<
        StaffDoneAnswer,
        { accountId: string; paymentId: string; reason: string }
      >({
        queryFn: staffCall(({ accountId: _accountId, paymentId, reason }) => ({
          url: url(`/payments/${id(paymentId)}/reconcile`),
          method: 'POST',
          body: { reason },
        })),
        invalidatesTags: (_answer, _error, { accountId }) => accountChanged(accountId),
      }),

      moneyRequests: build.query<{ items: MoneyRequest[] }, void>({
        queryFn: staffCall(() => ({
          url: url('/money-requests'),
          params: { status: 'pending' },
        })),
        providesTags: ['StaffMoney'],
      }),
      decideMoneyRequest: build.mutation<
        StaffDoneAnswer,
        { requestId: string; decision: 'approve' | 'decline'; reason: string }
      >({
        queryFn: staffCall(({ requestId, decision, reason }) => ({
          url: url(`/money-requests/${id(requestId)}/${decision}`),
          method: 'POST',
          body: { reason },
        })),
        // An approved request moves money on an account the cache may hold.
        invalidatesTags: ['StaffMoney', 'StaffAccount', 'StaffAudit'],
      }),

      staffMembers: build.query<{ items: StaffMember[] }, void>({
        queryFn: staffCall(() => ({ url: url('/roles') })),
        providesTags: ['StaffRoles'],
      }),
      grantRole: build.mutation<StaffDoneAnswer, StaffGrantRequest>({
        queryFn: staffCall((body: StaffGrantRequest) => ({
          url: url('/roles'),
          method: 'POST',
          body,
        })),
        invalidatesTags: ['StaffRoles', 'StaffAudit', 'StaffMe'],
      }),
      revokeRole: build.mutation<StaffDoneAnswer, { userId: string; reason: string }>({
        queryFn: staffCall(({ userId, reason }) => ({
          url: url(`/roles/${id(userId)}/revoke`),
          method: 'POST',
          body: { reason },
        })),
        invalidatesTags: ['StaffRoles', 'StaffAudit', 'StaffMe'],
      }),

      /** Newest first, a page at a time: «Показать ещё» asks for the rows before the last one. */
      audit: build.infiniteQuery<StaffAuditAnswer, StaffAuditFilters, number | null>({
        infiniteQueryOptions: {
          initialPageParam: null,
          getNextPageParam: (lastPage) =>
            lastPage.hasMore ? (lastPage.items.at(-1)?.seq ?? undefined) : undefined,
        },
        queryFn: ({ queryArg, pageParam }, api, extra, send) =>
          staffCall<null, StaffAuditAnswer>(() => ({
            url: url('/audit'),
            params: { ...auditParams(queryArg), before: pageParam },
          }))(null, api, extra, send),
        providesTags: ['StaffAudit'],
      }),
    }),
  });

/** The audit's filters as query parameters: the empty ones left out. */
export function auditParams(filters: StaffAuditFilters): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filters).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
    ),
  );
}

export const {
  useStaffMeQuery,
  useProveWithCodeMutation,
  usePasskeyProofOptionsMutation,
  useProveWithPasskeyMutation,
  useSearchAccountsQuery,
  useAccountQuery,
  usePaymentReceiptsQuery,
  useAccountActionMutation,
  useSendFactorResetCodeMutation,
  useResetFactorsMutation,
  useResendLetterMutation,
  useCorrectionMutation,
  useReconcileMutation,
  useRefundMutation,
  useMoneyRequestsQuery,
  useDecideMoneyRequestMutation,
  useStaffMembersQuery,
  useGrantRoleMutation,
  useRevokeRoleMutation,
  useAuditInfiniteQuery,
} = staffApi;
