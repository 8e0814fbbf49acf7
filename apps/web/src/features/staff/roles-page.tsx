import { STAFF_ROLE_NAMES, STAFF_ROLES } from '@portal/contracts/staff';
import { useState } from 'react';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { PageHeader } from '@/shared/ui/page-header';
import { PageLoader } from '@/shared/ui/page-loader';
import { TextField } from '@/shared/ui/text-field';
import {
  type StaffMember,
  useGrantRoleMutation,
  useRevokeRoleMutation,
  useStaffMembersQuery,
} from './api/staff-api';
import { formatMoment } from './format';
import { ReasonDialog } from './reason-dialog';
import styles from './staff.module.css';
import { STAFF_CHANGE_FORMS } from './staff-forms';
import { StaffTable } from './staff-table';

/** /staff/roles (admin): the staff now; a role granted (or changed) by e-mail, or taken back. */
export function RolesPage() {
  const members = useStaffMembersQuery();
  const [grant] = useGrantRoleMutation();
  const [revoke] = useRevokeRoleMutation();
  const [isGranting, setIsGranting] = useState(false);
  const [revoking, setRevoking] = useState<StaffMember | null>(null);

  let list: React.ReactNode;
  if (members.isError && !members.isFetching) {
    list = <LoadFailed error={members.error} onRetry={() => void members.refetch()} />;
  } else if (!members.data) {
    list = <PageLoader />;
  } else {
    list = (
      <StaffTable
        head={['E-mail', 'Пользователь', 'Роль', 'Кто дал', 'Когда', '']}
        rows={members.data.items.map((member) => ({
          key: member.userId,
          cells: [
            member.email,
            member.username,
            STAFF_ROLE_NAMES[member.role],
            member.grantedBy,
            formatMoment(member.grantedAt),
            <Button
              key="revoke"
              size="sm"
              variant="secondary"
              aria-label={`Забрать роль: ${member.email}`}
              onClick={() => setRevoking(member)}
            >
              Забрать роль
            </Button>,
          ],
        }))}
      />
    );
  }

  return (
    <>
      <PageHeader title="Сотрудники">
        <Button onClick={() => setIsGranting(true)}>Дать роль</Button>
      </PageHeader>
      <section className={styles.section} aria-label="Сотрудники и их роли">
        {list}
      </section>
      <ReasonDialog
        isOpen={isGranting}
        onClose={() => setIsGranting(false)}
        title="Дать роль"
        description="Роль получает аккаунт портала с этим e-mail; роль сотрудника меняется на новую."
        submitLabel="Дать роль"
        schema={STAFF_CHANGE_FORMS.grant}
        defaultValues={{ email: '', role: 'support' as const, reason: '' }}
        fields={(form) => (
          <>
            <TextField
              label="E-mail"
              type="email"
              autoComplete="off"
              autoFocus
              error={form.formState.errors.email?.message}
              {...form.register('email')}
            />
            <label className={styles.select}>
              Роль
              <select {...form.register('role')}>
                {STAFF_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {STAFF_ROLE_NAMES[role]}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        onSubmit={(values) => grant(values)}
      />
      <ReasonDialog
        isOpen={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Забрать роль"
        description={revoking ? `${revoking.email}: ${STAFF_ROLE_NAMES[revoking.role]}` : undefined}
        submitLabel="Забрать"
        isDanger
        schema={STAFF_CHANGE_FORMS.revoke}
        defaultValues={{ reason: '' }}
        onSubmit={({ reason }) =>
          revoking ? revoke({ userId: revoking.userId, reason }) : Promise.resolve({})
        }
      />
    </>
  );
}
