import {
  STAFF_NEEDS_FACTOR,
  STAFF_PAGES,
  STAFF_ROLE_NAMES,
  type StaffAbility,
  type StaffMeAnswer,
  staffCan,
} from '@portal/contracts/staff';
import type { ReactNode } from 'react';
import { Link, NavLink, Outlet, Route, Routes } from 'react-router';
import { paths } from '@/config/paths';
import { LoadFailed } from '@/shared/ui/load-failed';
import { PageLoader } from '@/shared/ui/page-loader';
import { AccountPage } from './account-page';
import { useStaffMeQuery } from './api/staff-api';
import { AuditPage } from './audit-page';
import { MoneyPage } from './money-page';
import { RolesPage } from './roles-page';
import { SearchPage } from './search-page';
import styles from './staff.module.css';
import { staffEntry } from './staff-entry';
import { staffNavItems, staffRoute } from './staff-nav';
import { StaffProofDialog } from './staff-proof-dialog';
import { MeContext } from './use-me';

/**
 * /staff/*: the support desk (docs/decisions/0044-support-desk.md). Loaded only when a signed-in
 * visitor opens it; `…/me` decides what shows: its 404 (not staff) is `notFound`, the app's page
 * for an unknown address, so a customer learns nothing. Each page is shown to the roles that may
 * use it; to the others it is not found either.
 */
export default function StaffArea({ notFound }: { notFound: ReactNode }) {
  const meQuery = useStaffMeQuery();
  const entry = staffEntry(meQuery);
  switch (entry.kind) {
    case 'loading':
      return <PageLoader />;
    case 'not-found':
      return notFound;
    case 'failed':
      return <LoadFailed isPage error={entry.error} onRetry={() => void meQuery.refetch()} />;
    case 'needs-factor':
      return <NeedsFactor />;
    case 'ready':
      return <StaffFrame me={entry.me} notFound={notFound} />;
  }
}

function NeedsFactor() {
  return (
    <main className={styles.main}>
      <h1>Поддержка</h1>
      <p>{STAFF_NEEDS_FACTOR}</p>
      <p>
        <Link className={styles.link} to={paths.profile.getHref()}>
          Перейти в профиль
        </Link>
      </p>
    </main>
  );
}

const PAGES: { page: string; ability: StaffAbility; element: ReactNode }[] = [
  { page: STAFF_PAGES.search, ability: 'support', element: <SearchPage /> },
  { page: STAFF_PAGES.account, ability: 'support', element: <AccountPage /> },
  { page: STAFF_PAGES.money, ability: 'money', element: <MoneyPage /> },
  { page: STAFF_PAGES.roles, ability: 'admin', element: <RolesPage /> },
  { page: STAFF_PAGES.audit, ability: 'admin', element: <AuditPage /> },
];

/** The pages this role may use in the staff frame; any other address, the app's not-found page. */
function StaffFrame({ me, notFound }: { me: StaffMeAnswer; notFound: ReactNode }) {
  return (
    <MeContext value={me}>
      <Routes>
        <Route element={<StaffLayout me={me} />}>
          {PAGES.filter(({ ability }) => staffCan(me.role, ability)).map(({ page, element }) => (
            <Route key={page} path={staffRoute(page)} element={element} />
          ))}
        </Route>
        <Route path="*" element={notFound} />
      </Routes>
    </MeContext>
  );
}

/** The staff's own frame: the nav (only the pages the role can use), the role, the way back. */
function StaffLayout({ me }: { me: StaffMeAnswer }) {
  return (
    <div className={styles.frame}>
      <header className={styles.bar}>
        <span className={styles.brand}>Поддержка</span>
        <nav aria-label="Разделы поддержки" className={styles.nav}>
          {staffNavItems(me.role).map((item) => (
            <NavLink key={item.to} to={item.to} end className={styles.navLink}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className={styles.who}>
          <span>
            {me.username}, роль: <strong>{STAFF_ROLE_NAMES[me.role]}</strong>
          </span>
          <Link className={styles.link} to={paths.home.getHref()}>
            В личный кабинет
          </Link>
        </div>
      </header>
      <main className={styles.main}>
        <Outlet />
      </main>
      <StaffProofDialog methods={me.proofMethods} />
    </div>
  );
}
