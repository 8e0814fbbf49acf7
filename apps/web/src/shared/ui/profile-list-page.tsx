import { type ReactNode, useId } from 'react';
import { paths } from '@/config/paths';
import { Card } from './card';
import { PageBackLink, PageHeader } from './page-header';
import styles from './profile-list-page.module.css';

/**
 * A page opened from the profile that lists one kind of thing (the devices, the security log):
 * its title, «Назад» to the profile, and one card titled `listTitle` holding the list.
 * `after` comes below the card (a page's dialog).
 */
export function ProfileListPage({
  title,
  listTitle,
  children,
  after,
}: {
  title: string;
  listTitle: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  const titleId = useId();
  return (
    <>
      <PageHeader title={title}>
        <PageBackLink to={paths.profile.getHref()}>Назад</PageBackLink>
      </PageHeader>
      <Card aria-labelledby={titleId}>
        <h2 id={titleId} className={styles.listTitle}>
          {listTitle}
        </h2>
        {children}
      </Card>
      {after}
    </>
  );
}
