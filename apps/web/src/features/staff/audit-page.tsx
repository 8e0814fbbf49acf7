import { type FormEvent, useState } from 'react';
import { saveFile } from '@/shared/lib/save-file';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { LoadMoreButton } from '@/shared/ui/load-more-button';
import { PageHeader } from '@/shared/ui/page-header';
import { PageLoader } from '@/shared/ui/page-loader';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { downloadAuditCsv } from './api/audit-csv';
import { type StaffAuditFilters, useAuditInfiniteQuery } from './api/staff-api';
import { AuditTable } from './audit-table';
import styles from './staff.module.css';

const FILTER_FIELDS: { name: keyof StaffAuditFilters; label: string; type?: string }[] = [
  { name: 'actor', label: 'Сотрудник' },
  { name: 'account', label: 'Аккаунт (id)' },
  { name: 'kind', label: 'Действие' },
  { name: 'from', label: 'С', type: 'date' },
  { name: 'to', label: 'По', type: 'date' },
];

/**
 * /staff/audit (admin): what the staff did, newest first, filtered; «Показать ещё» asks for the
 * rows before the last one; «Скачать CSV» every row under the same filters.
 */
export function AuditPage() {
  const [typed, setTyped] = useState<StaffAuditFilters>({});
  const [filters, setFilters] = useState<StaffAuditFilters>({});
  const [isDownloading, setIsDownloading] = useState(false);
  const audit = useAuditInfiniteQuery(filters);
  const rows = audit.data?.pages.flatMap((page) => page.items) ?? [];

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters(typed);
  }

  async function download() {
    setIsDownloading(true);
    const result = await downloadAuditCsv(filters);
    setIsDownloading(false);
    if (result.data) saveFile(result.data.file, result.data.fileName);
    else if (result.error) notify.error(result.error.text);
  }

  return (
    <>
      <PageHeader title="Журнал действий">
        <Button
          variant="secondary"
          disabled={isDownloading}
          aria-busy={isDownloading}
          onClick={() => void download()}
        >
          Скачать CSV
        </Button>
      </PageHeader>
      <form className={styles.filters} onSubmit={apply} aria-label="Фильтры журнала">
        {FILTER_FIELDS.map((field) => (
          <TextField
            key={field.name}
            label={field.label}
            type={field.type}
            value={typed[field.name] ?? ''}
            onChange={(event) => setTyped({ ...typed, [field.name]: event.target.value })}
          />
        ))}
        <Button type="submit">Показать</Button>
      </form>
      <section className={styles.section} aria-label="Записи журнала">
        {audit.isError && !audit.isFetching ? (
          <LoadFailed error={audit.error} onRetry={() => void audit.refetch()} />
        ) : !audit.data ? (
          <PageLoader />
        ) : (
          <>
            <AuditTable rows={rows} />
            {audit.hasNextPage ? (
              <LoadMoreButton
                isLoading={audit.isFetchingNextPage}
                onClick={() => void audit.fetchNextPage()}
              />
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
