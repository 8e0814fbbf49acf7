import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { PageHeader } from '@/shared/ui/page-header';
import { TextField } from '@/shared/ui/text-field';
import { useSearchAccountsQuery } from './api/staff-api';
import { formatMoment, MATCHED_BY } from './format';
import styles from './staff.module.css';
import { staffAccountHref } from './staff-nav';
import { StaffTable } from './staff-table';

const SEARCH_HINT =
  'E-mail, имя пользователя, id, телефон, Telegram id или номер платежа — точно; часть e-mail или имени';

/** /staff: one field finds an account; its query and page live in the address (back works). */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [typed, setTyped] = useState(q);
  const found = useSearchAccountsQuery({ q, page }, { skip: q === '' });

  function search(event: FormEvent) {
    event.preventDefault();
    const next = typed.trim();
    if (next) setParams({ q: next });
  }

  const goTo = (nextPage: number) => setParams({ q, page: String(nextPage) });

  return (
    <>
      <PageHeader title="Поиск клиента" />
      <search>
        <form className={styles.searchForm} onSubmit={search}>
          <TextField
            label="Кого ищем"
            type="search"
            hint={SEARCH_HINT}
            value={typed}
            autoFocus
            onChange={(event) => setTyped(event.target.value)}
          />
          <Button type="submit" disabled={typed.trim() === ''}>
            Найти
          </Button>
        </form>
      </search>
      {q === '' ? null : found.isError && !found.isFetching ? (
        <LoadFailed error={found.error} onRetry={() => void found.refetch()} />
      ) : !found.data || found.isFetching ? (
        <p role="status" className={styles.muted}>
          Ищем…
        </p>
      ) : found.data.items.length === 0 ? (
        <p role="status">Никого не нашли. Проверьте написание или поищите по-другому.</p>
      ) : (
        <section className={styles.section} aria-labelledby="search-results">
          <h2 id="search-results" className={styles.sectionTitle}>
            Найдено
          </h2>
          <StaffTable
            head={['E-mail', 'Имя', 'Пользователь', 'Создан', 'Блокировка', 'Совпало']}
            rows={found.data.items.map((hit) => ({
              key: hit.id,
              cells: [
                <Link key="account" className={styles.link} to={staffAccountHref(hit.id)}>
                  {hit.email}
                </Link>,
                hit.fullName ?? '—',
                hit.username,
                formatMoment(hit.createdAt),
                hit.isBlocked ? 'Заблокирован' : '—',
                MATCHED_BY[hit.matchedBy],
              ],
            }))}
          />
          {page > 1 || found.data.hasMore ? (
            <nav className={styles.pager} aria-label="Страницы результатов">
              <Button variant="secondary" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                Назад
              </Button>
              <span>Страница {page}</span>
              <Button
                variant="secondary"
                disabled={!found.data.hasMore}
                onClick={() => goTo(page + 1)}
              >
                Дальше
              </Button>
            </nav>
          ) : null}
        </section>
      )}
    </>
  );
}
